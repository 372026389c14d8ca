package host_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// puller drains a Feed as a server does: whenever the table notifies it.
type puller struct {
	f     *host.Feed[toyAction, toyView, string]
	kick  chan struct{} // notify's
	items []string
	room  int // > 0: send refuses every room-th item once with ErrNoRoom
	sends int
	full  int // Drains that ended DrainFull
	fetch int // Fetches
	ended bool
	end   error
}

func subscribe(t *testing.T, h *toyHost, id, token string, after uint64) *puller {
	t.Helper()
	p := &puller{kick: make(chan struct{}, 1)}
	f, err := h.Subscribe(context.Background(), id, token, after, func() {
		select {
		case p.kick <- struct{}{}:
		default:
		}
	})
	if err != nil {
		t.Fatalf("Subscribe: %v", err)
	}
	p.f = f
	t.Cleanup(f.Close)
	return p
}

// drain takes everything ready now and returns what is left to do:
// DrainWait or DrainEnd.
func (p *puller) drain(t *testing.T) host.Drained {
	t.Helper()
	for {
		st, err := p.f.Drain(func(it host.Item[toyView, string]) error {
			p.sends++
			if p.room > 0 && p.sends%p.room == 0 {
				return host.ErrNoRoom
			}
			p.items = append(p.items, describe(it))
			return nil
		})
		switch st {
		case host.DrainFull:
			p.full++
		case host.DrainFetch:
			p.fetch++
			if err := p.f.Fetch(context.Background()); err != nil {
				t.Fatalf("Fetch: %v", err)
			}
		case host.DrainEnd:
			p.ended, p.end = true, err
			return st
		case host.DrainWait:
			return st
		default:
			t.Fatalf("Drain = %v, %v", st, err)
		}
	}
}

// untilEnd drains at every notify until the follow ends; the time limit
// only bounds a broken test.
func (p *puller) untilEnd(t *testing.T) {
	t.Helper()
	limit := time.After(10 * time.Second)
	for p.drain(t) != host.DrainEnd {
		select {
		case <-p.kick:
		case <-limit:
			t.Fatalf("the feed did not end: %v", p.items)
		}
	}
}

// TestFeed checks that a Feed gives what Follow gives the same seat from
// the same seq, item for item, and ends as Follow does: after the game's
// last event, when the seat's player leaves, when the table leaves memory
// or the host closes; also when its reader runs out of room now and then.
func TestFeed(t *testing.T) {
	waiting := func(t *testing.T) *fixture {
		s := defaultSettings
		f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{IdleTTL: time.Minute})
		f.join(2)
		return f
	}
	playing := func(t *testing.T) *fixture {
		f := newFixture(t, defaultSettings, 2, host.Config[toyAction, toyView, string]{})
		f.join(4)
		return f
	}
	for _, c := range []struct {
		name  string
		setup func(t *testing.T) *fixture
		seat  int
		after uint64
		room  int
		do    func(t *testing.T, f *fixture)
		want  error // the end; nil: the game's
	}{
		{"whole game", playing, 0, 0, 0, func(t *testing.T, f *fixture) { play(t, f) }, nil},
		{"resumed", playing, 1, 3, 0, func(t *testing.T, f *fixture) { play(t, f) }, nil},
		{"no room now and then", playing, 2, 0, 3, func(t *testing.T, f *fixture) { play(t, f) }, nil},
		{"left", playing, 1, 0, 0, func(t *testing.T, f *fixture) {
			if err := f.h.Leave(context.Background(), f.id, f.tokens[1]); err != nil {
				t.Fatalf("Leave: %v", err)
			}
		}, host.ErrWrongToken},
		{"left before the start", waiting, 1, 0, 0, func(t *testing.T, f *fixture) {
			if err := f.h.Leave(context.Background(), f.id, f.tokens[1]); err != nil {
				t.Fatalf("Leave: %v", err)
			}
		}, host.ErrWrongToken},
		{"evicted", waiting, 0, 0, 0, func(t *testing.T, f *fixture) { f.clk.Advance(time.Minute) }, host.ErrEvicted},
		{"host closed", playing, 3, 0, 0, func(t *testing.T, f *fixture) { f.h.Close() }, host.ErrClosed},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := c.setup(t)
			fl := f.follow(c.seat, c.after)
			fl.waitFor(t, func(host.Item[toyView, string]) bool { return true }) // open
			p := subscribe(t, f.h, f.id, f.tokens[c.seat], c.after)
			p.room = c.room
			if st := p.drain(t); st != host.DrainWait {
				t.Fatalf("first drain = %v, want DrainWait", st)
			}
			if len(p.items) == 0 {
				t.Fatal("nothing ready on open, want the snapshot or the events after after_seq")
			}
			// Nothing new: Drain returns at once with nothing.
			n := len(p.items)
			if st := p.drain(t); st != host.DrainWait || len(p.items) != n {
				t.Fatalf("drain with nothing new = %v and %d items, want DrainWait and %d", st, len(p.items), n)
			}
			c.do(t, f)
			p.untilEnd(t)
			if err := fl.wait(); !errors.Is(err, c.want) && err != c.want {
				t.Fatalf("Follow ended with %v, want %v", err, c.want)
			}
			if !errors.Is(p.end, c.want) && p.end != c.want {
				t.Fatalf("the feed ended with %v, want %v", p.end, c.want)
			}
			if want := fl.bodies(); !slices.Equal(p.items, want) {
				t.Fatalf("the feed gave\n%v\nFollow gave\n%v", p.items, want)
			}
			if c.room > 0 && p.full == 0 {
				t.Fatal("send never ran out of room")
			}
			// Once ended, it stays ended.
			if st, err := p.f.Drain(func(host.Item[toyView, string]) error { return nil }); st != host.DrainEnd || err != p.end {
				t.Fatalf("Drain after the end = %v, %v; want DrainEnd, %v", st, err, p.end)
			}
		})
	}
}

// TestFeedConnects checks that an open feed counts as the seat's stream,
// as Follow's does: the seat is connected until Close.
func TestFeedConnects(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(2)
	p := subscribe(t, f.h, f.id, f.tokens[1], 0)
	if in := f.info(); !in.Seats[1].Connected {
		t.Fatalf("seat 1 not connected with a feed open: %+v", in.Seats[1])
	}
	p.f.Close()
	p.f.Close() // twice is once
	if in := f.info(); in.Seats[1].Connected {
		t.Fatalf("seat 1 connected after its feed closed: %+v", in.Seats[1])
	}
	if _, err := f.h.Subscribe(context.Background(), f.id, "not a token", 0, func() {}); !errors.Is(err, host.ErrWrongToken) {
		t.Fatalf("Subscribe with a wrong token = %v, want ErrWrongToken", err)
	}
}

// TestFeedFromStore follows the seats of a table recovered from a
// snapshot from their first events: those before the snapshot come from
// the store (DrainFetch, then Fetch), the rest from the log, all as
// Follow gives them.
func TestFeedFromStore(t *testing.T) {
	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 4)
	a.playUntil(func() bool { return a.round() >= 3 })
	a.h.Close()
	b := recoverOn(t, st, a.clk.Now().Add(time.Minute), a.fixture)
	for seat := range 3 {
		n, err := b.h.SeatSeq(context.Background(), b.id, b.tokens[seat])
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		r := record(ctx, b.h, b.id, b.tokens[seat], 1)
		want := r.waitLen(t, int(n-1))
		cancel()
		<-r.done
		p := subscribe(t, b.h, b.id, b.tokens[seat], 1)
		if p.drain(t) != host.DrainWait {
			t.Fatalf("seat %d: the feed ended: %v", seat, p.end)
		}
		if p.fetch == 0 {
			t.Fatalf("seat %d: no Fetch from the store", seat)
		}
		if len(p.items) != len(want) {
			t.Fatalf("seat %d: the feed gave %d events, Follow %d", seat, len(p.items), len(want))
		}
		for i, it := range p.items {
			if !strings.HasSuffix(want[i], ":"+it) {
				t.Fatalf("seat %d event %d: feed %s, Follow %s", seat, i, it, want[i])
			}
		}
	}
}
