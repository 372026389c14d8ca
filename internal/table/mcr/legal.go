package mcr

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// Legal lists every action seat s may take now: in its turn every distinct
// discard, its kongs and tsumo, in a claim window its offers and Pass.
// Deal is the host's and never listed. Every action listed is accepted by
// Step, and Step accepts no other.
func (t *Table) Legal(s Seat) []Action { return t.AppendLegal(nil, s) }

// AppendLegal is Legal appending to dst.
func (t *Table) AppendLegal(dst []Action, s Seat) []Action {
	if !t.Waiting(s) {
		return dst
	}
	switch t.phase {
	case Turn:
		return t.turnActions(dst, s)
	case ClaimWindow:
		return t.appendOffer(dst, s)
	}
	return dst
}

// Waiting reports whether the table waits for seat s: the seat to act in
// its turn, a seat with an unanswered claim offer.
func (t *Table) Waiting(s Seat) bool {
	if s >= NumSeats {
		return false
	}
	r := &t.r
	switch t.phase {
	case Turn:
		return s == r.toAct
	case ClaimWindow:
		return r.offered[s] != 0 && r.answered[s].Type == 0
	}
	return false
}

// ClaimTile returns the tile the open claim window is about.
func (t *Table) ClaimTile() (tile.Tile, bool) {
	if t.phase != ClaimWindow {
		return 0, false
	}
	return t.r.claimTile, true
}

// ToAct returns the seat whose turn it is, in the Turn phase.
func (t *Table) ToAct() (Seat, bool) { return t.r.toAct, t.phase == Turn }

func (t *Table) turnActions(dst []Action, s Seat) []Action {
	r := &t.r
	p := &r.seats[s]
	if r.tsumo {
		dst = append(dst, Action{Seat: s, Type: Tsumo})
	}
	if r.hasDrawn && r.wallLeft() > 0 {
		for k := range tile.Kind(tile.NumKinds) {
			x := tile.Plain(k)
			if p.counts[k] == 4 {
				dst = append(dst, Action{Seat: s, Type: ClosedKan, Tile: x})
			}
			if p.counts[k] > 0 && p.ponOf(k) >= 0 {
				dst = append(dst, Action{Seat: s, Type: AddedKan, Tile: x})
			}
		}
	}
	for k := range tile.Kind(tile.NumKinds) {
		if p.counts[k] > 0 {
			dst = append(dst, Action{Seat: s, Type: Discard, Tile: tile.Plain(k)})
		}
	}
	return dst
}

// Default is the action a seat that runs out of time plays, and ok is
// false when the table does not wait for it: in its turn the drawn tile,
// or after a call the last tile of its hand; in a claim window a pass.
// It never wins: a seat that lets its time run out declines the win.
func (t *Table) Default(s Seat) (Action, bool) {
	if !t.Waiting(s) {
		return Action{}, false
	}
	if t.phase == ClaimWindow {
		return Action{Seat: s, Type: Pass}, true
	}
	r := &t.r
	p := &r.seats[s]
	x := p.hand[len(p.hand)-1]
	if r.hasDrawn {
		x = r.drawn
	}
	return Action{Seat: s, Type: Discard, Tile: x}, true
}
