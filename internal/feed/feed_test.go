package feed_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/feed/feedtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var (
	ev      = feedtest.Event
	collect = feedtest.Collect
)

func TestFeed(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) *feed.Feed{
		"memory": func(*testing.T) *feed.Feed { return feed.Memory() },
		"bolt": func(t *testing.T) *feed.Feed {
			f, err := feed.Open(filepath.Join(t.TempDir(), "results.db"))
			if err != nil {
				t.Fatal(err)
			}
			return f
		},
	} {
		t.Run(name, func(t *testing.T) {
			f := open(t)
			defer f.Close()
			feedtest.Steps(t, f)
		})
	}
}

// TestFeedDurable: a reopened feed has every event, and a repeat of a
// step kept before the restart is still kept once.
func TestFeedDurable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	f, err := feed.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 300 { // more than one read batch
		if _, err := f.Append(ev(pb.TableEvent_KIND_CREATED, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	f.Close()
	f, err = feed.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if added, _ := f.Append(ev(pb.TableEvent_KIND_CREATED, "7")); added {
		t.Fatal("a step kept before the restart was added again")
	}
	e := ev(pb.TableEvent_KIND_FINISHED, "7")
	if added, err := f.Append(e); !added || err != nil || e.GetCursor() != 301 {
		t.Fatalf("Append after reopening = %v, %v, cursor %d; want cursor 301", added, err, e.GetCursor())
	}
	got := collect(t, f, 0, 301)
	if got[6].GetTableId() != "6" || got[300].GetKind() != pb.TableEvent_KIND_FINISHED {
		t.Fatalf("events after reopening: %v ... %v", got[6], got[300])
	}
}

// TestFeedWaits: a watcher at the end gets each new event, and ends when
// the feed closes.
func TestFeedWaits(t *testing.T) {
	f := feed.Memory()
	var mu sync.Mutex
	var got []uint64
	done := make(chan error, 1)
	go func() {
		done <- f.Watch(context.Background(), 0, func(e *pb.TableEvent) error {
			mu.Lock()
			got = append(got, e.GetCursor())
			mu.Unlock()
			return nil
		})
	}()
	for i := range 3 {
		if _, err := f.Append(ev(pb.TableEvent_KIND_CREATED, fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("watcher got %d of 3", n)
		}
	}
	f.Close()
	if err := <-done; !errors.Is(err, feed.ErrClosed) {
		t.Fatalf("Watch after Close = %v, want ErrClosed", err)
	}
	if _, err := f.Append(ev(pb.TableEvent_KIND_CREATED, "x")); !errors.Is(err, feed.ErrClosed) {
		t.Fatalf("Append after Close = %v", err)
	}
}
