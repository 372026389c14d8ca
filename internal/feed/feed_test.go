package feed_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	"go.uber.org/goleak"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/feed/feedtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

var (
	ev      = feedtest.Event
	collect = feedtest.Collect
)

// feeds opens a feed of each kind of log a process keeps.
var feeds = map[string]func(t *testing.T) *feed.Feed{
	"memory": func(*testing.T) *feed.Feed { return feed.Memory() },
	"bolt": func(t *testing.T) *feed.Feed {
		f, err := feed.Open(filepath.Join(t.TempDir(), "results.db"))
		if err != nil {
			t.Fatal(err)
		}
		return f
	},
}

func TestFeed(t *testing.T) {
	for name, open := range feeds {
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

// TestFeedConcurrent: appends from many goroutines at once, each event
// told twice, get every cursor from 1 on once, in the order a reader
// finds them, and a repeat gets its first's cursor.
func TestFeedConcurrent(t *testing.T) {
	for name, open := range feeds {
		t.Run(name, func(t *testing.T) {
			f := open(t)
			defer f.Close()
			const tables, kinds = 50, 3
			cursors := make([][2 * kinds]uint64, tables)
			var wg sync.WaitGroup
			for i := range tables {
				for k := range 2 * kinds {
					wg.Go(func() {
						e := ev(pb.TableEvent_Kind(1+k%kinds), fmt.Sprint(i))
						if _, err := f.Append(e); err != nil {
							t.Error(err)
						}
						cursors[i][k] = e.GetCursor()
					})
				}
			}
			wg.Wait()
			seen := map[uint64]bool{}
			for i, cs := range cursors {
				for k := range kinds {
					if cs[k] != cs[k+kinds] {
						t.Errorf("table %d kind %d: cursors %d and %d for one step", i, k+1, cs[k], cs[k+kinds])
					}
					if seen[cs[k]] {
						t.Errorf("cursor %d given twice", cs[k])
					}
					seen[cs[k]] = true
				}
			}
			got := collect(t, f, 0, tables*kinds)
			for n, e := range got {
				if c := e.GetCursor(); c != uint64(n+1) {
					t.Fatalf("event %d has cursor %d", n+1, c)
				}
				var table int
				fmt.Sscan(e.GetTableId(), &table)
				if cursors[table][e.GetKind()-1] != e.GetCursor() {
					t.Errorf("event %d is %v of table %d, which was given cursor %d", n+1, e.GetKind(), table, cursors[table][e.GetKind()-1])
				}
			}
			if last, err := f.Last(); err != nil || last != tables*kinds {
				t.Fatalf("Last = %d, %v; want %d", last, err, tables*kinds)
			}
		})
	}
}

// TestFeedOldFile: a feed file written before the events' bucket kept its
// sequence (its last cursor only in its last key) goes on after it.
func TestFeedOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		events, _ := tx.CreateBucket([]byte("events"))
		seen, _ := tx.CreateBucket([]byte("seen"))
		for c := uint64(1); c <= 5; c++ {
			e := ev(pb.TableEvent_KIND_CREATED, fmt.Sprint(c))
			e.Cursor = c
			raw, _ := proto.Marshal(e)
			k := binary.BigEndian.AppendUint64(nil, c)
			if err := events.Put(k, raw); err != nil {
				return err
			}
			if err := seen.Put([]byte(feed.Key(e)), k); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	f, err := feed.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if added, err := f.Append(ev(pb.TableEvent_KIND_CREATED, "3")); added || err != nil {
		t.Fatalf("a step of the old file: added %v, %v", added, err)
	}
	e := ev(pb.TableEvent_KIND_STARTED, "3")
	if added, err := f.Append(e); !added || err != nil || e.GetCursor() != 6 {
		t.Fatalf("Append = %v, %v, cursor %d; want cursor 6", added, err, e.GetCursor())
	}
}
