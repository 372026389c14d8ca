// Package sichuan holds a simple deterministic player of Sichuan tables
// (package internal/table/sichuan), for benchmarks, fuzzing and empty
// seats. Its choice is a pure function of what its seat sees: the View,
// legal actions included (Act), or the table's Brief of the seat, which
// says the same for less (Decide).
package sichuan

import (
	"errors"
	"fmt"

	jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Efficient gives its shortest suit in the exchange and voids its
// shortest suit, discards the void suit first, then discards for the
// lowest shanten over its live suits: the drawn tile when it does not
// lower the shanten (at once, without the judge, when it has no copy and
// nothing within two of it), else the tile that leaves the lowest
// shanten, ties to the most isolated tile, then the highest. It wins
// whenever it may, pons and kans when that does not take its hand further
// from ready, and passes otherwise. The zero value is ready to use.
type Efficient struct{}

// Act returns seat v.Seat's action; ok is false when it has nothing to do.
func (Efficient) Act(v *sc.View) (sc.Action, bool) {
	if len(v.Legal) == 0 {
		return sc.Action{}, false
	}
	in := sc.Brief{Seat: v.Seat, Phase: v.Phase, Waiting: true, Counts: tile.CountsOf(v.Tiles),
		Drawn: v.Drawn, HasDrawn: v.HasDrawn, Void: v.Void, VoidSet: v.VoidSet}
	if v.HasDrawn {
		in.Counts[v.Drawn.Kind()]++
	}
	in.NMelds = copy(in.Melds[:], v.Seats[v.Seat].Melds)
	for _, a := range v.Legal {
		k := a.Tile.Kind()
		switch a.Type {
		case sc.Discard:
			in.Discards = in.Discards.With(k)
		case sc.ClosedKan:
			in.ClosedKans = in.ClosedKans.With(k)
		case sc.AddedKan:
			in.AddedKans = in.AddedKans.With(k)
		case sc.Tsumo:
			in.Tsumo = true
		case sc.Ron:
			in.Ron, in.ClaimTile = true, a.Tile
		case sc.Pon:
			in.Pon, in.ClaimTile = true, a.Tile
		case sc.OpenKan:
			in.OpenKan, in.ClaimTile = true, a.Tile
		}
	}
	if in.HasDrawn || in.Phase == sc.ClaimWindow {
		in.Shanten = beforeDraw(&in)
	}
	return decide(&in), true
}

// beforeDraw is the shanten of b's thirteen tiles (without its drawn
// tile), or sc.ShantenUnknown while it holds its void suit: what the
// table's Brief says.
func beforeDraw(b *sc.Brief) int {
	var ms [4]jsc.Meld
	h := hand(b, &ms)
	if b.HasDrawn {
		h.Concealed[b.Drawn.Kind()]--
	}
	if jsc.HoldsVoid(&h) {
		return sc.ShantenUnknown
	}
	return jsc.Shanten(&h)
}

// Decide is Act without a View: it reads seat s's Brief and makes the
// choice Act makes from View(s), for a fraction of the cost.
func (Efficient) Decide(t *sc.Table, s sc.Seat) (sc.Action, bool) {
	b := t.Brief(s)
	if !b.Waiting {
		return sc.Action{}, false
	}
	return decide(&b), true
}

// decide chooses from what the seat may do, b.
func decide(b *sc.Brief) sc.Action {
	s := b.Seat
	switch b.Phase {
	case sc.Exchanging:
		return sc.Action{Seat: s, Type: sc.Exchange, Tiles: sc.DefaultExchange(&b.Counts)}
	case sc.ChoosingVoid:
		return sc.Action{Seat: s, Type: sc.Void, Suit: sc.DefaultVoid(&b.Counts)}
	case sc.ClaimWindow:
		return claim(b)
	}
	return turn(b)
}

// hand is the judge's view of the seat's hand.
func hand(b *sc.Brief, melds *[4]jsc.Meld) jsc.Hand {
	h := jsc.Hand{Concealed: b.Counts, Void: b.Void}
	if !b.VoidSet {
		h.Void = tile.Honor
	}
	for i, m := range b.Melds[:b.NMelds] {
		melds[i] = jsc.Meld{Type: jsc.MeldType(m.Type), Kind: m.Kind}
	}
	h.Melds = melds[:b.NMelds]
	return h
}

// claim wins, or pons or kans the discard when the hand is then no further
// from ready than now, or passes.
func claim(b *sc.Brief) sc.Action {
	a := sc.Action{Seat: b.Seat, Tile: b.ClaimTile}
	if b.Ron {
		a.Type = sc.Ron
		return a
	}
	if !b.Pon && !b.OpenKan {
		return sc.Action{Seat: b.Seat, Type: sc.Pass}
	}
	var ms [4]jsc.Meld
	h := hand(b, &ms)
	now := b.Shanten
	if now == sc.ShantenUnknown {
		now = jsc.Shanten(&h)
	}
	k := b.ClaimTile.Kind()
	after := h
	after.Melds = ms[:b.NMelds+1]
	if b.OpenKan {
		ms[b.NMelds] = jsc.Meld{Type: jsc.OpenKan, Kind: k}
		after.Concealed[k] -= 3
		if jsc.Shanten(&after) <= now {
			a.Type = sc.OpenKan
			return a
		}
		after.Concealed[k] += 3
	}
	if b.Pon {
		ms[b.NMelds] = jsc.Meld{Type: jsc.Pon, Kind: k}
		after.Concealed[k] -= 2
		if _, sh := bestDiscard(&after, 0, true, drawn{}); sh < now {
			a.Type = sc.Pon
			return a
		}
	}
	return sc.Action{Seat: b.Seat, Type: sc.Pass}
}

// turn wins, kans or discards.
func turn(b *sc.Brief) sc.Action {
	s := b.Seat
	if b.Tsumo {
		return sc.Action{Seat: s, Type: sc.Tsumo}
	}
	kans := b.ClosedKans | b.AddedKans
	if d := b.Drawn.Kind(); b.HasDrawn && kans == 0 && b.Discards.Has(d) && neighbours(&b.Counts, d) == 0 {
		// A tile with no copy and nothing within two of it lowers neither
		// the standard nor the seven-pairs shanten: giving it back is as
		// good as any discard, and the judge need not be asked.
		return sc.Action{Seat: s, Type: sc.Discard, Tile: b.Drawn}
	}
	var ms [4]jsc.Meld
	h := hand(b, &ms)
	k, sh := bestDiscard(&h, b.Discards, kans != 0, drawn{kind: b.Drawn.Kind(), before: b.Shanten, has: b.HasDrawn})
	for kk := range kans.All() {
		after := h
		var ams [4]jsc.Meld
		copy(ams[:], ms[:b.NMelds])
		typ := sc.AddedKan
		if b.ClosedKans.Has(kk) {
			typ = sc.ClosedKan
			ams[b.NMelds] = jsc.Meld{Type: jsc.ClosedKan, Kind: kk}
			after.Melds = ams[:b.NMelds+1]
			after.Concealed[kk] -= 4
		} else {
			for i := range b.NMelds {
				if ams[i].Kind == kk {
					ams[i].Type = jsc.AddedKan
				}
			}
			after.Melds = ams[:b.NMelds]
			after.Concealed[kk]--
		}
		if jsc.Shanten(&after) <= sh {
			return sc.Action{Seat: s, Type: typ, Tile: tile.Plain(kk)}
		}
	}
	return sc.Action{Seat: s, Type: sc.Discard, Tile: tile.Plain(k)}
}

// bestDiscard returns the kind among allowed (every kind held when 0)
// whose discard leaves h (3n+2 tiles) at the lowest shanten, and that
// shanten. Ties go to the tile with the fewest neighbours in its suit,
// then to the highest kind; the shanten is unknownShanten when
// needShanten is false and the choice did not need it. What d says of the
// drawn tile spares the judge a question or two. No discard leaves a hand nearer to ready than
// the whole 3n+2 tiles are, so the candidates are tried in the order of
// the ties and the first that reaches that bound is the answer.
func bestDiscard(h *jsc.Hand, allowed tile.KindSet, needShanten bool, d drawn) (tile.Kind, int) {
	c := &h.Concealed
	known := d.before != sc.ShantenUnknown && d.has
	bound, haveBound := 0, false
	if known && allowed.Has(d.kind) {
		// A draw that does not lower the shanten is given back: its
		// discard leaves the hand as it was, as near to ready as any.
		if bound, haveBound = jsc.Shanten(h), true; bound == d.before {
			return d.kind, bound
		}
	}
	var kinds [14]tile.Kind
	var key [14]int
	n := 0
	if allowed == 0 {
		allowed = c.Kinds()
	}
	for k := range allowed.All() {
		if c[k] != 0 && n < len(kinds) {
			// The order of the ties: fewest neighbours, then highest kind.
			kinds[n], key[n] = k, neighbours(c, k)<<5|(31-int(k))
			n++
		}
	}
	next := func() tile.Kind {
		i := 0
		for j := 1; j < n; j++ {
			if key[j] < key[i] {
				i = j
			}
		}
		key[i] = 1 << 30
		return kinds[i]
	}
	if voidOnly(h, allowed) && !needShanten {
		// Every candidate is a dead tile of the void suit: they all leave
		// the same shanten, and the order of the ties decides.
		return next(), unknownShanten
	}
	best, bestSh := tile.Kind(0), 1<<30
	// Candidates in order, chosen lazily: the first usually reaches the
	// bound.
	for range n {
		k := next()
		var sh int
		if known && k == d.kind {
			sh = d.before // the hand before the draw, as the table measured it
		} else {
			c[k]--
			sh = jsc.Shanten(h)
			c[k]++
		}
		if sh < bestSh {
			best, bestSh = k, sh
		}
		if known && sh < d.before {
			break // a draw lowers the shanten by one at most
		}
		if !haveBound {
			bound, haveBound = jsc.Shanten(h), true
		}
		if sh <= bound {
			break
		}
	}
	return best, bestSh
}

// drawn is what bestDiscard may know of the tile just drawn: its kind, and
// the shanten of the hand before the draw (which is also the shanten after
// discarding a tile of that kind).
type drawn struct {
	kind   tile.Kind
	before int
	has    bool
}

// unknownShanten is bestDiscard's shanten when it was not asked for.
const unknownShanten = -2

// voidOnly reports whether allowed holds kinds of h's void suit only.
func voidOnly(h *jsc.Hand, allowed tile.KindSet) bool {
	if allowed == 0 || h.Void > tile.Sou {
		return false
	}
	suit := tile.KindSet(1<<9-1) << (9 * tile.KindSet(h.Void))
	return allowed&^suit == 0
}

// neighbours counts the other tiles of k's suit within two of it.
func neighbours(c *tile.Counts, k tile.Kind) int {
	n := int(c[k]) - 1
	switch k % 9 {
	case 0:
		return n + int(c[k+1]) + int(c[k+2])
	case 1:
		return n + int(c[k-1]) + int(c[k+1]) + int(c[k+2])
	case 7:
		return n + int(c[k-2]) + int(c[k-1]) + int(c[k+1])
	case 8:
		return n + int(c[k-2]) + int(c[k-1])
	}
	return n + int(c[k-2]) + int(c[k-1]) + int(c[k+1]) + int(c[k+2])
}

// ErrTooLong is Play's error for a match that does not end in time.
var ErrTooLong = errors.New("bot: match too long")

// Play plays t to the end of its match with bots[s] at seat s, dealing
// each hand the wall next returns, and returns the number of steps. A host
// in process (benchmarks, tests) uses it; it allocates nothing of its own
// per step.
func Play(t *sc.Table, bots *[sc.NumSeats]Efficient, next func() sc.Wall, maxSteps int) (int, error) {
	steps := 0
	var w sc.Wall
	var evs []sc.Event
	var err error
	for t.Phase() != sc.MatchOver {
		if steps >= maxSteps {
			return steps, ErrTooLong
		}
		steps++
		if t.Phase() == sc.BetweenHands {
			w = next()
			if evs, err = t.StepInto(evs[:0], sc.Action{Type: sc.Deal, Wall: &w}); err != nil {
				return steps, fmt.Errorf("bot: deal: %w", err)
			}
			continue
		}
		acted := false
		for s := range sc.Seat(sc.NumSeats) {
			if !t.Waiting(s) {
				continue
			}
			a, ok := bots[s].Decide(t, s)
			if !ok {
				return steps, fmt.Errorf("bot: seat %d has nothing to do in %v", s, t.Phase())
			}
			if evs, err = t.StepInto(evs[:0], a); err != nil {
				return steps, fmt.Errorf("bot: seat %d: %w", s, err)
			}
			acted = true
			break
		}
		if !acted {
			return steps, fmt.Errorf("bot: the table waits for nobody in %v", t.Phase())
		}
	}
	return steps, nil
}
