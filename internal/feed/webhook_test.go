package feed_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"
	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/feed"
)

// receiver is a webhook endpoint that refuses its first posts.
type receiver struct {
	mu      sync.Mutex
	refuse  int
	secret  []byte
	cursors []uint64
	bad     int // posts with a wrong signature or body
	posts   int // accepted posts, repeats included
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuse > 0 {
		r.refuse--
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	var e pb.TableEvent
	c, _ := strconv.ParseUint(req.Header.Get("X-Authority-Cursor"), 10, 64)
	if req.Header.Get("X-Authority-Signature") != feed.Sign(r.secret, body) || protojson.Unmarshal(body, &e) != nil || e.GetCursor() != c {
		r.bad++
	}
	r.posts++
	if len(r.cursors) == 0 || c > r.cursors[len(r.cursors)-1] {
		r.cursors = append(r.cursors, c) // a receiver drops a cursor it has seen
	}
}

func (r *receiver) got() []uint64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]uint64(nil), r.cursors...)
}

func (r *receiver) waitFor(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); len(r.got()) < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the receiver got %v, want %d posts", r.got(), n)
		}
	}
}

// TestWebhook: every event is posted once in order, signed, retried
// after refusals, and a restart goes on after the last one delivered.
func TestWebhook(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.db")
	r := &receiver{refuse: 2, secret: []byte("s3cret")}
	srv := httptest.NewServer(r)
	defer srv.Close()
	hook := feed.Webhook{URL: srv.URL, Secret: r.secret, Backoff: func() backoff.BackOff { return backoff.NewConstantBackOff(time.Millisecond) }}
	f, err := feed.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range []string{"a", "b", "c"} {
		if _, err := f.Append(ev(pb.TableEvent_KIND_CREATED, tb)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.Deliver(ctx, hook) }()
	r.waitFor(t, 3)
	cancel()
	<-done
	f.Close()

	f, err = feed.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	go func() { done <- f.Deliver(ctx, hook) }()
	if _, err := f.Append(ev(pb.TableEvent_KIND_FINISHED, "a")); err != nil {
		t.Fatal(err)
	}
	r.waitFor(t, 4)
	cancel()
	<-done
	// At least once: the last event before a stop may come again after
	// it (delivered, but the stop came before its cursor was kept).
	if got := r.got(); len(got) != 4 || got[0] != 1 || got[1] != 2 || got[2] != 3 || got[3] != 4 || r.bad != 0 || r.posts > 5 {
		t.Fatalf("the receiver got %v in %d posts (%d bad), want 1 2 3 4 signed, at most one repeat", got, r.posts, r.bad)
	}
}
