// Package feedtest checks that a results feed keeps its promises,
// whatever its feed.Log: the tests of each log run the same steps.
package feedtest

import (
	"context"
	"errors"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/feed"
)

// Event is a feed event of kind for table.
func Event(kind pb.TableEvent_Kind, table string) *pb.TableEvent {
	return &pb.TableEvent{Kind: kind, TableId: table}
}

// Collect reads n events after cursor after, through Watch.
func Collect(t *testing.T, f *feed.Feed, after uint64, n int) []*pb.TableEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var got []*pb.TableEvent
	stop := errors.New("enough")
	err := f.Watch(ctx, after, func(e *pb.TableEvent) error {
		got = append(got, e)
		if len(got) == n {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Fatalf("Watch after %d = %v with %d events, want %d", after, err, len(got), n)
	}
	return got
}

// Steps appends events to an empty feed, a repeat among them, and reads
// them back from every cursor: the cursors are 1, 2, ... in order of
// appending, the repeat gets the first one's cursor and is not added, and
// Last is the newest cursor.
func Steps(t *testing.T, f *feed.Feed) {
	t.Helper()
	steps := []struct {
		e          *pb.TableEvent
		added      bool
		wantCursor uint64
	}{
		{Event(pb.TableEvent_KIND_CREATED, "a"), true, 1},
		{Event(pb.TableEvent_KIND_CREATED, "b"), true, 2},
		{Event(pb.TableEvent_KIND_STARTED, "a"), true, 3},
		{Event(pb.TableEvent_KIND_FINISHED, "a"), true, 4},
		{Event(pb.TableEvent_KIND_FINISHED, "a"), false, 4}, // told again after a restart
		{Event(pb.TableEvent_KIND_CLOSED, "b"), true, 5},
	}
	for i, s := range steps {
		added, err := f.Append(s.e)
		if err != nil || added != s.added || s.e.GetCursor() != s.wantCursor {
			t.Fatalf("step %d: Append = %v, %v, cursor %d; want %v, cursor %d", i, added, err, s.e.GetCursor(), s.added, s.wantCursor)
		}
	}
	if got, err := f.Last(); got != 5 || err != nil {
		t.Fatalf("Last = %d, %v, want 5", got, err)
	}
	for after := uint64(0); after < 5; after++ {
		got := Collect(t, f, after, int(5-after))
		for i, e := range got {
			if e.GetCursor() != after+uint64(i)+1 {
				t.Fatalf("after %d: event %d has cursor %d", after, i, e.GetCursor())
			}
		}
	}
	if got := Collect(t, f, 0, 5); got[3].GetKind() != pb.TableEvent_KIND_FINISHED || got[3].GetTableId() != "a" {
		t.Fatalf("event 4 is %v", got[3])
	}
}
