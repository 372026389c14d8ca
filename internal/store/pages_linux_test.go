package store_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// rssKiB is statusKiB, skipping the test where it is not known.
func rssKiB(t *testing.T, field string) int64 {
	t.Helper()
	n, ok := statusKiB(field)
	if !ok {
		t.Skipf("no %s in /proc/self/status", field)
	}
	return n
}

// touchEvents opens a store with opts, saves 16 MiB of events over 64
// tables and returns it with a function that reads them all back.
func touchEvents(t *testing.T, opts ...store.Option) (*store.Bolt[move], func()) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "a.db")
	s, err := store.Open[move](path, moveCodec{}, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := context.Background()
	const tables, size = 64, 256 << 10 // 16 MiB of events
	events := func(i int) []byte { return bytes.Repeat([]byte{byte(i)}, size) }
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, s, id, numbered(0, 1)...)
		if err := s.SaveSnapshot(ctx, id, host.TableSnapshot{Entries: 1, State: []byte("s"), Events: events(i)}); err != nil {
			t.Fatal(err)
		}
	}
	readAll := func() {
		t.Helper()
		for i := range tables {
			got, err := s.LoadEvents(ctx, fmt.Sprint("t", i), 1)
			if err != nil || !bytes.Equal(got, events(i)) {
				t.Fatalf("LoadEvents(t%d) = %d bytes, %v; want the %d saved", i, len(got), err, size)
			}
		}
	}
	return s, readAll
}

// TestDropPages: the file's pages that readers touched leave the
// process's resident set at the writer's next drop (here at every check,
// after every commit), and read back the same afterwards.
func TestDropPages(t *testing.T) {
	s, readAll := touchEvents(t, store.WithDropEvery(0), store.WithMappedMax(0))
	readAll()
	touched := rssKiB(t, "RssFile")
	// A commit of the writer (appends are the appender's): it drops.
	if err := s.Create(context.Background(), host.TableRecord{ID: "other"}); err != nil {
		t.Fatal(err)
	}
	// The writer drops after it answers the commit's requests.
	deadline := time.Now().Add(5 * time.Second)
	dropped := rssKiB(t, "RssFile")
	for touched-dropped < 8<<10 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		dropped = rssKiB(t, "RssFile")
	}
	if touched-dropped < 8<<10 {
		t.Errorf("RssFile %d KiB after the drop, %d before; want 8 MiB or more less", dropped, touched)
	}
	readAll()
	if again := rssKiB(t, "RssFile"); again-dropped < 8<<10 {
		t.Errorf("RssFile %d KiB after reading again, %d after the drop; want the pages back", again, dropped)
	}
}

// TestDropPagesWithinBudget: pages the store's budget has room for stay
// mapped, so that the writer does not fault its working set back in at
// every check.
func TestDropPagesWithinBudget(t *testing.T) {
	s, readAll := touchEvents(t, store.WithDropEvery(0), store.WithMappedMax(1<<40))
	readAll()
	touched := rssKiB(t, "RssFile")
	for i := range 20 {
		// A commit of the writer, and a check after it.
		if err := s.Create(context.Background(), host.TableRecord{ID: fmt.Sprint("other", i)}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if now := rssKiB(t, "RssFile"); touched-now >= 8<<10 {
		t.Errorf("RssFile %d KiB after the commits, %d before; want the pages kept within the budget", now, touched)
	}
}
