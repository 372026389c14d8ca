package host_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// fencing is one node's view of a store shared by two nodes, fencing as
// a replicated store does: Claim makes the claiming view the only one
// that may append to the table.
type fencing struct {
	*host.MemoryStore[toyAction]
	mu     *sync.Mutex
	holder map[string]int // table -> the view that claimed it last
	me     int
}

func (f fencing) Claim(ctx context.Context, table string) (host.TableRecord, *host.TableSnapshot, []host.Entry[toyAction], error) {
	f.mu.Lock()
	f.holder[table] = f.me
	f.mu.Unlock()
	return f.LoadTable(ctx, table)
}

func (f fencing) Append(ctx context.Context, table string, entries ...host.Entry[toyAction]) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if who, ok := f.holder[table]; ok && who != f.me {
		return fmt.Errorf("fencing store: table %s: %w", table, host.ErrFenced)
	}
	return f.MemoryStore.Append(ctx, table, entries...)
}

// leases records what a host asks of its cluster.
type leases struct {
	mu       sync.Mutex
	acquired []string
	dropped  []string
}

func (l *leases) Acquire(_ context.Context, id string) (bool, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acquired = append(l.acquired, id)
	return true, nil
}

func (l *leases) Drop(id string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.dropped = append(l.dropped, id)
}

func (l *leases) got() (acquired, dropped []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.acquired...), append([]string(nil), l.dropped...)
}

// TestAdoptAndFence: a node adopts a table another node runs (as after
// that node's lease expired), resumed where its log ends; the old owner's
// next append is fenced: it refuses the request without changing the
// table, gives the table up and drops its lease; the new owner plays on.
// Release then gives the table up on the new owner: its streams end with
// ErrReleased.
func TestAdoptAndFence(t *testing.T) {
	shared := host.NewMemoryStore[toyAction]()
	var mu sync.Mutex
	holder := map[string]int{}
	gameFor := func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(2), nil }
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	var l1, l2 leases
	newHost := func(me int, l *leases) *toyHost {
		h := host.New(host.Config[toyAction, toyView, string]{
			Clock: clk, Store: fencing{MemoryStore: shared, mu: &mu, holder: holder, me: me}, GameFor: gameFor, Owner: l,
		})
		t.Cleanup(h.Close)
		return h
	}
	h1, h2 := newHost(1, &l1), newHost(2, &l2)
	f := &fixture{t: t, clk: clk, store: shared, h: h1}
	info, owner, err := h1.Create(context.Background(), defaultSettings, []byte("meta"), newToy(2))
	if err != nil {
		t.Fatal(err)
	}
	f.id, f.owner = info.ID, owner
	if acq, _ := l1.got(); len(acq) != 1 || acq[0] != f.id {
		t.Fatalf("leases taken on create: %v", acq)
	}
	f.join(4) // the last join starts it
	if _, err := f.act(0, "a1", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); err != nil {
		t.Fatal(err)
	}
	heads := [4]uint64{f.seq(0), f.seq(1), f.seq(2), f.seq(3)}
	logged := len(shared.Entries(f.id))

	if err := h2.Adopt(context.Background(), f.id); err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	if err := h2.Adopt(context.Background(), f.id); err != nil {
		t.Fatalf("Adopt of a table held already: %v", err)
	}
	f.h = h2
	for s, want := range heads {
		if got := f.seq(s); got != want {
			t.Fatalf("seat %d at %d on the new owner, was at %d", s, got, want)
		}
	}
	// The old owner acts on a table it lost.
	f.h = h1
	_, err = f.act(2, "b1", heads[2], toyAction{Seat: 2, Kind: "pass"})
	if !errors.Is(err, host.ErrReleased) || !errors.Is(err, host.ErrUnavailable) {
		t.Fatalf("act on the fenced owner = %v, want ErrReleased", err)
	}
	if n := len(shared.Entries(f.id)); n != logged {
		t.Fatalf("the fenced append changed the log: %d entries, was %d", n, logged)
	}
	if h1.Holds(f.id) {
		t.Fatal("the fenced owner still holds the table")
	}
	// Asked of a node that does not hold it, a game in play is elsewhere
	// (a client retries), not unknown (a client gives up).
	if _, err := h1.Get(context.Background(), f.id); !errors.Is(err, host.ErrUnavailable) || errors.Is(err, host.ErrNotFound) {
		t.Fatalf("Get of a live table on a node that does not hold it = %v, want ErrUnavailable", err)
	}
	if _, drop := l1.got(); len(drop) != 1 || drop[0] != f.id {
		t.Fatalf("leases dropped by the fenced owner: %v", drop)
	}
	// The new owner plays on: the same request is taken there.
	f.h = h2
	if _, err := f.act(2, "b1", heads[2], toyAction{Seat: 2, Kind: "pass"}); err != nil {
		t.Fatalf("act on the new owner: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := record(ctx, h2, f.id, f.tokens[0], 1)
	r.waitLen(t, 1) // open
	if !h2.Release(f.id, errors.New("lease lost")) {
		t.Fatal("Release: not held")
	}
	select {
	case err := <-r.done:
		if !errors.Is(err, host.ErrReleased) {
			t.Fatalf("stream of a released table ended with %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stream of a released table did not end")
	}
	if h2.Holds(f.id) || h2.Release(f.id, nil) {
		t.Fatal("the released table is still held")
	}
	if _, ok := shared.Finished(f.id); ok {
		t.Fatal("a released table was marked finished")
	}
}

// TestAdoptNothingToRun: Adopt of an unknown table is ErrNotFound; of a
// finished game, ErrGameOver, and it is not held.
func TestAdoptNothingToRun(t *testing.T) {
	f := newFixture(t, host.Settings{Seats: 4, FillWithBots: true}, 1, host.Config[toyAction, toyView, string]{
		GameFor: func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(1), nil },
	})
	if err := f.h.Start(context.Background(), f.id, f.owner); err != nil {
		t.Fatal(err)
	}
	for f.info().State != host.Finished {
		f.clk.Advance(time.Second)
	}
	h := host.New(host.Config[toyAction, toyView, string]{
		Clock: f.clk, Store: f.store,
		GameFor: func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(1), nil },
	})
	defer h.Close()
	if err := h.Adopt(context.Background(), "no-such-table"); !errors.Is(err, host.ErrNotFound) {
		t.Fatalf("Adopt of an unknown table = %v", err)
	}
	if err := h.Adopt(context.Background(), f.id); !errors.Is(err, host.ErrGameOver) {
		t.Fatalf("Adopt of a finished game = %v", err)
	}
	if h.Holds(f.id) {
		t.Fatal("a finished game was adopted")
	}
}
