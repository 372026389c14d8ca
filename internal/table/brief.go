package table

import (
	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Brief is the little of a seat's view that a simple bot decides from: its
// own tiles by kind, and of its Legal list whether it may tsumo or ron and
// which kinds it may discard (kans, riichi and the nine-terminals abort are
// left out; DiscardAction gives riichi). Taking one copies a few words
// where a View copies every pond and builds the Legal list, so bots that
// play millions of turns (benchmarks, fuzzing) use it. Like a View, it
// never shows another seat's concealed tiles or the wall.
type Brief struct {
	Seat    Seat
	Phase   Phase
	Waiting bool // the table waits for Seat (see Waiting)

	// Turn (when Waiting).
	Counts   tile.Counts  // Seat's concealed tiles by kind, the drawn tile included
	Drawn    tile.Tile    // the tile just drawn, when HasDrawn
	HasDrawn bool         // Seat drew and has not discarded yet (not so after a call)
	Tsumo    bool         // Legal lists Tsumo
	Riichi   bool         // Seat's riichi is accepted: only the drawn tile may go
	Discards tile.KindSet // the kinds Legal lists a Discard of
	// Shanten is judge.Shanten of the hand before the draw (after a call:
	// before the call). Seat's Fishing event said the same, but for a
	// hand waiting only on kinds it holds all four of (1 there, 0 here).
	Shanten int

	// ClaimWindow (when Waiting).
	ClaimTile tile.Tile // the tile the window is about
	Ron       bool      // Legal lists Ron
}

// Brief returns seat s's brief. A seat the table does not wait for (or a
// spectator) gets Seat, Phase and Waiting false only.
func (t *Table) Brief(s Seat) Brief {
	b := Brief{Seat: s, Phase: t.phase}
	if s >= NumSeats || !t.Waiting(s) {
		return b
	}
	b.Waiting = true
	r := &t.r
	p := &r.seats[s]
	switch t.phase {
	case Turn:
		b.Counts = p.counts
		if r.hasDrawn {
			b.Drawn, b.HasDrawn = r.drawn, true
		}
		b.Tsumo, b.Riichi, b.Shanten = r.tsumo, p.riichi, p.judgeShanten
		if p.riichi {
			b.Discards = tile.KindSet(0).With(r.drawn.Kind())
			break
		}
		b.Discards = p.held &^ p.forbid
	case ClaimWindow:
		b.ClaimTile = r.claimTile
		b.Ron = r.window.Offer(claims.Seat(s)).Has(claims.Option{Call: claims.Ron})
	}
	return b
}

// DiscardAction returns the first Discard of kind k that Legal(s) lists (a
// red five before plain ones; the drawn tile as tsumogiri when the hand
// holds no other copy of it), or with riichi set the Riichi declared with
// that tile. ok is false when Legal(s) lists no such action.
func (t *Table) DiscardAction(s Seat, k tile.Kind, riichi bool) (a Action, ok bool) {
	r := &t.r
	if t.phase != Turn || s != r.toAct || k >= tile.NumKinds {
		return Action{}, false
	}
	p := &r.seats[s]
	if p.riichi {
		if riichi || r.drawn.Kind() != k {
			return Action{}, false
		}
		return Action{Seat: s, Type: Discard, Tile: r.drawn, Tsumogiri: true}, true
	}
	if p.counts[k] == 0 || p.forbid.Has(k) {
		return Action{}, false
	}
	i := 0
	for p.hand[i].Kind() != k {
		i++
	}
	x := p.hand[i]
	a = Action{Seat: s, Type: Discard, Tile: x}
	if r.hasDrawn && x == r.drawn && (i+1 == len(p.hand) || p.hand[i+1] != x) {
		a.Tsumogiri = true // the only copy of its face: Legal lists it as tsumogiri
	}
	if riichi {
		if !t.riichiAllowed(s, k) {
			return Action{}, false
		}
		a.Type = Riichi
	}
	return a, true
}

// riichiAllowed reports whether seat s, to act and not in riichi, may
// declare riichi discarding a tile of kind k (which it holds): the
// conditions Legal and checkRiichi apply.
func (t *Table) riichiAllowed(s Seat, k tile.Kind) bool {
	r := &t.r
	p := &r.seats[s]
	if !r.hasDrawn || !p.closed() || t.scores[s] < 1000 || r.liveLeft() < 4 {
		return false
	}
	c := p.counts
	c[k]--
	sh, _ := tenpai(p, &c)
	return sh == 0
}
