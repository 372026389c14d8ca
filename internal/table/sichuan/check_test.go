package sichuan

import (
	"reflect"
	"slices"
	"testing"

	jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// cloneTable copies a table deeply enough for reflect.DeepEqual to see any
// change: the fixed arrays by value, the ponds and won tiles by hand.
func cloneTable(t *Table) Table {
	c := *t
	for s := range c.r.seats {
		c.r.seats[s].pond = slices.Clone(t.r.seats[s].pond)
		c.r.seats[s].won = slices.Clone(t.r.seats[s].won)
		c.r.seats[s].hand = nil
		c.r.seats[s].melds = slices.Clone(t.r.seats[s].melds)
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
			if v.Tiles != nil || v.HasDrawn || v.Legal != nil || v.VoidSet || v.Chose {
				t.Fatalf("a spectator's view shows a hand, a choice or actions: %+v", v)
			}
			continue
		}
		if tb.hands > 0 {
			hand := slices.Clone(v.Tiles)
			if v.HasDrawn {
				hand = append(hand, v.Drawn)
			}
			tile.Sort(hand)
			if !slices.Equal(hand, tb.r.seats[s].hand) {
				t.Fatalf("seat %d view hand %s, table hand %s", s, tile.Format(hand), tile.Format(tb.r.seats[s].hand))
			}
			for o := range v.Seats {
				if v.Revealed != (tb.phase != Exchanging && tb.phase != ChoosingVoid) {
					t.Fatalf("seat %d view: voids revealed %v in %v", s, v.Revealed, tb.phase)
				}
				if !v.Revealed && v.Seats[o].Void != 0 {
					t.Fatalf("seat %d view shows seat %d's void before all chose", s, o)
				}
			}
		}
		legal := tb.Legal(s)
		if len(legal) > 0 != tb.Waiting(s) {
			t.Fatalf("seat %d: %d legal actions, waiting %v", s, len(legal), tb.Waiting(s))
		}
		for _, a := range legal {
			if err := tb.check(a); err != nil {
				t.Fatalf("Legal(%d) lists %v, which Step refuses: %v", s, a, err)
			}
		}
		got, want := tb.Brief(s), briefOf(&v)
		if want.HasDrawn || want.Phase == ClaimWindow && want.Waiting {
			want.Shanten = beforeDraw(&want)
		}
		if got != want {
			t.Fatalf("Brief(%d) = %+v, want %+v", s, got, want)
		}
		if d, ok := tb.Default(s); ok != tb.Waiting(s) {
			t.Fatalf("Default(%d) ok=%v, waiting %v", s, ok, tb.Waiting(s))
		} else if ok && !slices.Contains(legal, d) {
			t.Fatalf("Default(%d) = %v, not among %v", s, d, legal)
		}
	}
}

// checkAudience fails when an event would leak hidden information: private
// bodies go to their own seat only, and public ones carry no hidden tile or
// choice.
func checkAudience(t testing.TB, e Event) {
	t.Helper()
	private := func(seat Seat) {
		if !e.To.Private || e.To.Seat != seat {
			t.Fatalf("event %v should be private to seat %d", e, seat)
		}
	}
	public := func(hidden bool) {
		if e.To.Private || hidden {
			t.Fatalf("public event %v is private or shows what it should not", e)
		}
	}
	switch b := e.Body.(type) {
	case Dealt:
		private(b.Seat)
	case ClaimOffer:
		private(b.Seat)
	case TurnOffer:
		private(b.Seat)
	case ExchangeReceived:
		private(b.Seat)
	case ExchangeChosen:
		if b.Known {
			private(b.Seat)
		} else {
			public(b.Tiles != [3]tile.Tile{})
		}
	case VoidChosen:
		if b.Known {
			private(b.Seat)
		} else {
			public(b.Suit != 0)
		}
	case Drew:
		if b.Known {
			private(b.Seat)
		} else {
			public(b.Tile != 0)
		}
	default:
		public(false)
	}
}

// briefOf is the Brief a View implies.
func briefOf(v *View) Brief {
	b := Brief{Seat: v.Seat, Phase: v.Phase, Waiting: len(v.Legal) > 0}
	b.Counts = tile.CountsOf(v.Tiles)
	if v.HasDrawn {
		b.Counts[v.Drawn.Kind()]++
	}
	b.Void, b.VoidSet = v.Void, v.VoidSet
	b.NMelds = copy(b.Melds[:], v.Seats[v.Seat].Melds)
	if !b.Waiting {
		return b
	}
	if v.Phase == Turn {
		b.Drawn, b.HasDrawn = v.Drawn, v.HasDrawn
	}
	for _, a := range v.Legal {
		k := a.Tile.Kind()
		switch a.Type {
		case Discard:
			b.Discards = b.Discards.With(k)
		case ClosedKan:
			b.ClosedKans = b.ClosedKans.With(k)
		case AddedKan:
			b.AddedKans = b.AddedKans.With(k)
		case Tsumo:
			b.Tsumo = true
		case Ron:
			b.Ron, b.ClaimTile = true, a.Tile
		case Pon:
			b.Pon, b.ClaimTile = true, a.Tile
		case OpenKan:
			b.OpenKan, b.ClaimTile = true, a.Tile
		}
	}
	return b
}

func equalTables(a, b *Table) bool { return reflect.DeepEqual(a, b) }

// beforeDraw is the shanten of b's thirteen tiles (without its drawn
// tile), as the table keeps it.
func beforeDraw(b *Brief) int {
	c := b.Counts
	if b.HasDrawn {
		c[b.Drawn.Kind()]--
	}
	h := jsc.Hand{Concealed: c, Void: b.Void}
	for _, m := range b.Melds[:b.NMelds] {
		h.Melds = append(h.Melds, jsc.Meld{Type: jsc.MeldType(m.Type), Kind: m.Kind})
	}
	lo := tile.Kind(b.Void) * 9
	for k := lo; k < lo+9; k++ {
		if c[k] > 0 {
			return ShantenUnknown
		}
	}
	return jsc.Shanten(&h)
}
