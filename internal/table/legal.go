package table

import (
	"slices"

	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Legal lists every action seat s may take now: in its turn every distinct
// discard (the drawn tile as tsumogiri), riichi discards, kans, tsumo and
// the nine-terminals abort; in a claim window its offers and Pass. Deal is
// the host's, not a seat's, and is never listed. Every action listed is
// accepted by Step, and Step accepts no other (up to a host's choice among
// equal tiles).
func (t *Table) Legal(s Seat) []Action {
	return t.AppendLegal(nil, s)
}

// AppendLegal is Legal appending to dst.
func (t *Table) AppendLegal(dst []Action, s Seat) []Action {
	if s >= NumSeats {
		return dst
	}
	r := &t.r
	switch t.phase {
	case Turn:
		if s != r.toAct {
			return dst
		}
		return t.turnActions(dst, s)
	case ClaimWindow:
		if !r.window.Waiting(claims.Seat(s)) {
			return dst
		}
		for _, opt := range r.window.Offer(claims.Seat(s)).Options() {
			dst = append(dst, t.optionAction(s, opt))
		}
		return append(dst, Action{Seat: s, Type: Pass})
	}
	return dst
}

// Waiting reports whether the table waits for seat s: the seat to act in
// its turn, or a seat with an unanswered claim offer.
func (t *Table) Waiting(s Seat) bool {
	switch t.phase {
	case Turn:
		return s == t.r.toAct
	case ClaimWindow:
		return t.r.window.Waiting(claims.Seat(s))
	}
	return false
}

// ClaimTile returns the tile the open claim window is about: the discard,
// or the tile of a kan that may be robbed.
func (t *Table) ClaimTile() (tile.Tile, bool) {
	if t.phase != ClaimWindow {
		return 0, false
	}
	return t.r.claimTile, true
}

func (t *Table) turnActions(acts []Action, s Seat) []Action {
	r := &t.r
	p := &r.seats[s]
	acts = slices.Grow(acts, 2*len(p.hand)+4)
	if r.tsumo {
		acts = append(acts, Action{Seat: s, Type: Tsumo})
	}
	if r.hasDrawn && !r.interrupted && len(p.pond) == 0 && !r.drawnRinshan && yaochuKinds(&p.counts) >= 9 {
		acts = append(acts, Action{Seat: s, Type: NineTerminals})
	}
	if r.hasDrawn && r.liveLeft() > 0 && r.kans < 4 {
		for i, x := range p.hand {
			k := x.Kind()
			if p.counts[k] == 4 && (i == 0 || p.hand[i-1].Kind() != k) &&
				(!p.riichi || r.drawn.Kind() == k && riichiKanKeepsHand(p, k)) {
				acts = append(acts, Action{Seat: s, Type: ClosedKan, Tile: tile.Plain(k)})
			}
		}
		if len(p.melds) > 0 {
			for i, x := range p.hand {
				if (i == 0 || x != p.hand[i-1]) && p.ponOf(x.Kind()) >= 0 {
					acts = append(acts, Action{Seat: s, Type: AddedKan, Tile: x})
				}
			}
		}
	}
	if p.riichi {
		return append(acts, Action{Seat: s, Type: Discard, Tile: r.drawn, Tsumogiri: true})
	}
	// A draw lowers shanten by one at most: a hand two away before its draw
	// cannot be tenpai after any discard, and the judge is not asked; a
	// hand tenpai before its draw is tenpai again after discarding it. In
	// between, the 14 tiles must be tenpai or complete.
	canRiichi := r.hasDrawn && p.shanten <= 1 && p.closed() && t.scores[s] >= 1000 && r.liveLeft() >= 4 &&
		(p.shanten == 0 || judge.Shanten(&p.counts) <= 0)
	var tested, riichiKinds tile.KindSet
	for i := 0; i < len(p.hand); {
		x := p.hand[i]
		n := 1 // copies of exactly x: the hand is sorted
		for i+n < len(p.hand) && p.hand[i+n] == x {
			n++
		}
		i += n
		k := x.Kind()
		if p.forbid.Has(k) {
			continue
		}
		if canRiichi && !tested.Has(k) {
			tested = tested.With(k)
			c := p.counts
			c[k]--
			if sh, _ := tenpai(p, &c); sh == 0 {
				riichiKinds = riichiKinds.With(k)
			}
		}
		riichi := riichiKinds.Has(k)
		drawn := r.hasDrawn && x == r.drawn
		if !drawn || n > 1 {
			acts = append(acts, Action{Seat: s, Type: Discard, Tile: x})
			if riichi {
				acts = append(acts, Action{Seat: s, Type: Riichi, Tile: x})
			}
		}
		if drawn {
			acts = append(acts, Action{Seat: s, Type: Discard, Tile: x, Tsumogiri: true})
			if riichi {
				acts = append(acts, Action{Seat: s, Type: Riichi, Tile: x, Tsumogiri: true})
			}
		}
	}
	return acts
}
