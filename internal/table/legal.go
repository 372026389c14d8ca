package table

import (
	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Legal lists every action seat s may take now: in its turn every distinct
// discard (the drawn tile as tsumogiri), riichi discards, kans, tsumo and
// the nine-terminals abort; in a claim window its offers and Pass. Deal is
// the host's, not a seat's, and is never listed. Every action listed is
// accepted by Step, and Step accepts no other (up to a host's choice among
// equal tiles).
func (t *Table) Legal(s Seat) []Action {
	if s >= NumSeats {
		return nil
	}
	r := &t.r
	switch t.phase {
	case Turn:
		if s != r.toAct {
			return nil
		}
		return t.turnActions(s)
	case ClaimWindow:
		if !r.window.Waiting(claims.Seat(s)) {
			return nil
		}
		opts := r.window.Offer(claims.Seat(s)).Options()
		acts := make([]Action, 0, len(opts)+1)
		for _, opt := range opts {
			acts = append(acts, t.optionAction(s, opt))
		}
		return append(acts, Action{Seat: s, Type: Pass})
	}
	return nil
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

func (t *Table) turnActions(s Seat) []Action {
	r := &t.r
	p := &r.seats[s]
	acts := make([]Action, 0, len(p.hand)+4)
	if r.tsumo {
		acts = append(acts, Action{Seat: s, Type: Tsumo})
	}
	if r.hasDrawn && !r.interrupted && len(p.pond) == 0 && !r.drawnRinshan && yaochuKinds(&p.counts) >= 9 {
		acts = append(acts, Action{Seat: s, Type: NineTerminals})
	}
	// Kans.
	if r.hasDrawn && r.liveLeft() > 0 && r.kans < 4 {
		for k := range tile.NumKinds {
			if p.counts[k] == 4 && (!p.riichi || r.drawn.Kind() == tile.Kind(k) && riichiKanKeepsHand(p, tile.Kind(k))) {
				acts = append(acts, Action{Seat: s, Type: ClosedKan, Tile: tile.Plain(tile.Kind(k))})
			}
		}
		for i, x := range p.hand {
			if (i == 0 || x != p.hand[i-1]) && p.ponOf(x.Kind()) >= 0 {
				acts = append(acts, Action{Seat: s, Type: AddedKan, Tile: x})
			}
		}
	}
	if p.riichi {
		return append(acts, Action{Seat: s, Type: Discard, Tile: r.drawn, Tsumogiri: true})
	}
	// A draw lowers shanten by one at most: a hand two away before its draw
	// cannot be tenpai after any discard, and the judge is not asked.
	canRiichi := r.hasDrawn && p.shanten <= 1 && p.closed() && t.scores[s] >= 1000 && r.liveLeft() >= 4 && judgeShanten(p) <= 0
	for i, x := range p.hand {
		if i > 0 && x == p.hand[i-1] {
			continue
		}
		if p.forbid.Has(x.Kind()) {
			continue
		}
		n := p.has(x)
		drawn := r.hasDrawn && x == r.drawn
		riichi := false
		if canRiichi {
			c := p.counts
			c[x.Kind()]--
			sh, _ := tenpai(p, &c)
			riichi = sh == 0
		}
		for _, tg := range []bool{false, true} {
			if tg && !drawn || !tg && drawn && n == 1 {
				continue
			}
			acts = append(acts, Action{Seat: s, Type: Discard, Tile: x, Tsumogiri: tg})
			if riichi {
				acts = append(acts, Action{Seat: s, Type: Riichi, Tile: x, Tsumogiri: tg})
			}
		}
	}
	return acts
}
