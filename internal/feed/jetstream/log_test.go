package jetstream_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"go.uber.org/goleak"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/feed/feedtest"
	fjs "github.com/mahjong-authority/authority/internal/feed/jetstream"
	"github.com/mahjong-authority/authority/internal/natstest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// node opens the feed as one node of a cluster does: its own connection
// to the JetStream servers, the log, the feed woken by the log.
func node(t *testing.T, s *natsserver.Server) *feed.Feed {
	t.Helper()
	_, js := natstest.Connect(t, s)
	l, err := fjs.Open(context.Background(), js, fjs.Config{Poll: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	f := feed.New(l)
	l.Notify(f.Changed)
	t.Cleanup(func() { f.Close() })
	return f
}

func TestSteps(t *testing.T) {
	feedtest.Steps(t, node(t, natstest.Start(t)))
}

// TestOneFeedForTheCluster: two nodes share one feed. A watcher on one
// hears the other's events at once (not at the poll, an hour here); a
// step both nodes tell (a table that moved) is kept once with one cursor;
// the cursors are the same on both; and the feed outlives the nodes.
func TestOneFeedForTheCluster(t *testing.T) {
	s := natstest.Start(t)
	a, b := node(t, s), node(t, s)
	var mu sync.Mutex
	var heard []*pb.TableEvent
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- b.Watch(ctx, 0, func(e *pb.TableEvent) error {
			mu.Lock()
			heard = append(heard, e)
			mu.Unlock()
			return nil
		})
	}()
	for i := range 3 {
		if added, err := a.Append(feedtest.Event(pb.TableEvent_KIND_CREATED, fmt.Sprint("t", i))); !added || err != nil {
			t.Fatal(added, err)
		}
	}
	e := feedtest.Event(pb.TableEvent_KIND_FINISHED, "t1")
	if added, err := a.Append(e); !added || err != nil || e.GetCursor() != 4 {
		t.Fatalf("finished on a: %v, %v, cursor %d", added, err, e.GetCursor())
	}
	again := feedtest.Event(pb.TableEvent_KIND_FINISHED, "t1")
	if added, err := b.Append(again); added || err != nil || again.GetCursor() != 4 {
		t.Fatalf("the same end told by b: added %v, %v, cursor %d; want the kept one's, 4", added, err, again.GetCursor())
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		mu.Lock()
		n := len(heard)
		mu.Unlock()
		if n == 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("b's watcher heard %d of a's 4 events", n)
		}
	}
	cancel()
	<-done
	for i, e := range heard {
		if e.GetCursor() != uint64(i+1) {
			t.Errorf("event %d heard with cursor %d", i, e.GetCursor())
		}
	}
	c := node(t, s) // a node started later reads the whole feed
	if last, err := c.Last(); last != 4 || err != nil {
		t.Fatalf("Last on a new node = %d, %v", last, err)
	}
	if got := feedtest.Collect(t, c, 2, 2); got[0].GetTableId() != "t2" || got[1].GetKind() != pb.TableEvent_KIND_FINISHED {
		t.Fatalf("a new node reads %v", got)
	}
}

// TestWebhookCursorShared: the cursor delivered to a webhook is the
// cluster's: a node that takes the delivery over goes on after it.
func TestWebhookCursorShared(t *testing.T) {
	s := natstest.Start(t)
	a := node(t, s)
	for i := range 3 {
		if _, err := a.Append(feedtest.Event(pb.TableEvent_KIND_CREATED, fmt.Sprint("t", i))); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	var cursors []uint64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, _ := strconv.ParseUint(r.Header.Get("X-Authority-Cursor"), 10, 64)
		mu.Lock()
		cursors = append(cursors, c)
		mu.Unlock()
	}))
	defer srv.Close()
	deliver := func(f *feed.Feed, until int) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- f.Deliver(ctx, feed.Webhook{URL: srv.URL, Secret: []byte("0123456789abcdef")}) }()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
			mu.Lock()
			n := len(cursors)
			mu.Unlock()
			if n >= until {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("webhook got %d posts, want %d", n, until)
			}
		}
		cancel()
		<-done
	}
	deliver(a, 3)
	if _, err := a.Append(feedtest.Event(pb.TableEvent_KIND_CREATED, "t3")); err != nil {
		t.Fatal(err)
	}
	deliver(node(t, s), 4) // another node goes on after cursor 3
	time.Sleep(50 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(cursors) != "[1 2 3 4]" {
		t.Fatalf("webhook posts %v, want [1 2 3 4]", cursors)
	}
}
