package table

import (
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// cloneTable copies a table deeply enough for reflect.DeepEqual to see any
// change: the fixed arrays are copied by value, the ponds by hand.
func cloneTable(t *Table) Table {
	c := *t
	for s := range c.r.seats {
		c.r.seats[s].pond = slices.Clone(t.r.seats[s].pond)
	}
	return c
}

// checkStep is the invariant check run after every step of every test: the
// table's own Verify, sequence numbers, audiences, and what views and legal
// actions say.
func checkStep(t testing.TB, tb *Table, evs []Event, lastSeq *uint64) {
	t.Helper()
	if err := tb.Verify(); err != nil {
		t.Fatalf("invariant broken: %v", err)
	}
	for _, e := range evs {
		if e.Seq != *lastSeq+1 {
			t.Fatalf("event %v has seq %d after %d", e, e.Seq, *lastSeq)
		}
		*lastSeq = e.Seq
		checkAudience(t, e)
	}
	for s := range Seat(NumSeats + 1) {
		v := tb.View(s)
		if v.Seq != tb.seq {
			t.Fatalf("view seq %d, table seq %d", v.Seq, tb.seq)
		}
		if s == NumSeats {
			if v.Hand != nil || v.HasDrawn || v.Legal != nil {
				t.Fatalf("a spectator's view shows a hand or actions: %+v", v)
			}
			continue
		}
		if tb.rounds > 0 {
			hand := append(slices.Clone(v.Hand), []tile.Tile{}...)
			if v.HasDrawn {
				hand = append(hand, v.Drawn)
			}
			tile.Sort(hand)
			if !slices.Equal(hand, tb.r.seats[s].hand) {
				t.Fatalf("seat %d view hand %s, table hand %s", s, tile.Format(hand), tile.Format(tb.r.seats[s].hand))
			}
			for o := range v.Seats {
				if v.Seats[o].HandSize != len(tb.r.seats[o].hand) {
					t.Fatalf("seat %d view: seat %d hand size %d", s, o, v.Seats[o].HandSize)
				}
			}
		}
		for _, a := range tb.Legal(s) {
			if err := tb.check(a); err != nil {
				t.Fatalf("Legal(%d) lists %v, which Step refuses: %v", s, a, err)
			}
		}
	}
}

// checkAudience fails when an event would leak hidden information: private
// bodies must go to their own seat only, and public ones must not carry
// concealed tiles.
func checkAudience(t testing.TB, e Event) {
	t.Helper()
	private := func(seat Seat) {
		if !e.To.Private || e.To.Seat != seat {
			t.Fatalf("event %v should be private to seat %d", e, seat)
		}
	}
	switch b := e.Body.(type) {
	case Dealt:
		private(b.Seat)
	case Fishing:
		private(b.Seat)
	case ClaimOffer:
		private(b.Seat)
	case Drew:
		if b.Known {
			private(b.Seat)
		} else if e.To.Private || b.Tile != 0 {
			t.Fatalf("public draw %v carries a tile or is private", e)
		}
	default:
		if e.To.Private {
			t.Fatalf("event %v should be public", e)
		}
	}
}
