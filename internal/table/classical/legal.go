package classical

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
)

// Legal returns every action seat s may take now: in its turn, Mah Jong
// on the drawn tile, the fishing announcement, its kongs and a discard of
// each kind it holds; in a claim window, its offer and Pass. None between
// hands (the Deal is the host's).
func (t *Table) Legal(s Seat) []Action { return t.AppendLegal(nil, s) }

// AppendLegal is Legal appending to dst.
func (t *Table) AppendLegal(dst []Action, s Seat) []Action {
	r := &t.r
	if s >= NumSeats {
		return dst
	}
	switch t.phase {
	case ClaimWindow:
		if !r.answered[s] {
			dst = append(dst, r.offers[s]...)
		}
	case Turn:
		if s != r.toAct {
			return dst
		}
		p := &r.seats[s]
		ans := t.turnAnswers()
		if ans.win {
			dst = append(dst, Action{Seat: s, Type: MahJong, Tile: r.drawn})
		}
		if ans.fish {
			dst = append(dst, Action{Seat: s, Type: Fish})
		}
		if r.remaining() > 0 {
			for k, n := range p.counts {
				if n == 4 {
					dst = append(dst, Action{Seat: s, Type: ConcealedKong, Tile: tile.Plain(tile.Kind(k))})
				}
			}
			for _, m := range p.melds {
				if m.Type == MeldPung && p.counts[m.Kind] > 0 {
					dst = append(dst, Action{Seat: s, Type: AddedKong, Tile: tile.Plain(m.Kind)})
				}
			}
		}
		for k, n := range p.counts {
			if n > 0 {
				dst = append(dst, Action{Seat: s, Type: Discard, Tile: tile.Plain(tile.Kind(k))})
			}
		}
	}
	return dst
}

// Waiting reports whether the table waits for seat s: the seat to act in
// a turn, or a seat with an unanswered offer in a claim window.
func (t *Table) Waiting(s Seat) bool {
	switch t.phase {
	case Turn:
		return s == t.r.toAct
	case ClaimWindow:
		return s < NumSeats && len(t.r.offers[s]) > 0 && !t.r.answered[s]
	}
	return false
}

// ToAct returns the seat to act and whether the table is in a turn.
func (t *Table) ToAct() (Seat, bool) { return t.r.toAct, t.phase == Turn }

// ClaimTile returns the tile of the open claim window.
func (t *Table) ClaimTile() (tile.Tile, bool) { return t.r.claimTile, t.phase == ClaimWindow }

// Default returns what seat s plays when it runs out of time: in its
// turn, the tile it drew (or, after a claim, its last tile); in a claim
// window, Pass. False when the table does not wait for s.
func (t *Table) Default(s Seat) (Action, bool) {
	if !t.Waiting(s) {
		return Action{}, false
	}
	r := &t.r
	if t.phase == ClaimWindow {
		return Action{Seat: s, Type: Pass}, true
	}
	p := &r.seats[s]
	x := p.hand[len(p.hand)-1]
	if r.hasDrawn && p.counts[r.drawn.Kind()] > 0 {
		x = r.drawn
	}
	return Action{Seat: s, Type: Discard, Tile: x}, true
}

// String is the action in the scripts' notation: "1 discard 5m".
func (a Action) String() string {
	switch a.Type {
	case Deal:
		return "deal"
	case Discard, ConcealedKong, AddedKong, Chow:
		return fmt.Sprintf("%d %v %v", a.Seat, a.Type, a.Tile)
	}
	return fmt.Sprintf("%d %v", a.Seat, a.Type)
}
