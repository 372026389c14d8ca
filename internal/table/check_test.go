package table

import (
	"slices"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
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
		checkBrief(t, tb, s, &v)
	}
}

// checkBrief fails when seat s's Brief or DiscardAction says something
// other than its View and Legal list.
func checkBrief(t testing.TB, tb *Table, s Seat, v *View) {
	t.Helper()
	b := tb.Brief(s)
	want := Brief{Seat: s, Phase: tb.phase, Waiting: tb.Waiting(s)}
	if s < NumSeats && want.Waiting {
		switch tb.phase {
		case Turn:
			want.Counts = tile.CountsOf(v.Hand)
			if v.HasDrawn {
				want.Counts[v.Drawn.Kind()]++
				want.Drawn, want.HasDrawn = v.Drawn, true
			}
			want.Riichi = v.Seats[s].Riichi
			want.Shanten = tb.r.seats[s].judgeShanten
			if v.HasDrawn {
				// The hand before the draw, as the judge counts it.
				c := want.Counts
				c[v.Drawn.Kind()]--
				want.Shanten = judge.Shanten(&c)
			}
		case ClaimWindow:
			want.ClaimTile, _ = tb.ClaimTile()
		}
		for _, a := range v.Legal {
			switch a.Type {
			case Tsumo:
				want.Tsumo = true
			case Ron:
				want.Ron = true
			case Discard:
				want.Discards = want.Discards.With(a.Tile.Kind())
			}
		}
	}
	if b != want {
		t.Fatalf("Brief(%d) = %+v, want %+v", s, b, want)
	}
	for k := range tile.Kind(tile.NumKinds) {
		for _, typ := range []ActionType{Discard, Riichi} {
			got, ok := tb.DiscardAction(s, k, typ == Riichi)
			var first Action
			found := false
			for _, a := range v.Legal {
				if a.Type == Discard && a.Tile.Kind() == k {
					first, found = a, true
					break
				}
			}
			if found && typ == Riichi {
				found = false
				for _, a := range v.Legal {
					if a.Type == Riichi && a.Tile == first.Tile && a.Tsumogiri == first.Tsumogiri {
						first, found = a, true
						break
					}
				}
			}
			if ok != found || ok && got != first {
				t.Fatalf("DiscardAction(%d, %v, %v) = %v, %v; Legal lists %v", s, k, typ == Riichi, got, ok, v.Legal)
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
