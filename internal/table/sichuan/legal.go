package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// Legal lists every action seat s may take now: its exchange choices (every
// distinct three tiles of one suit), its void choices, in its turn every
// distinct discard, kans and tsumo, in a claim window its offers and Pass.
// Deal is the host's and never listed. Every action listed is accepted by
// Step, and Step accepts no other.
func (t *Table) Legal(s Seat) []Action { return t.AppendLegal(nil, s) }

// AppendLegal is Legal appending to dst.
func (t *Table) AppendLegal(dst []Action, s Seat) []Action {
	if s >= NumSeats || !t.Waiting(s) {
		return dst
	}
	r := &t.r
	p := &r.seats[s]
	switch t.phase {
	case Exchanging:
		return appendExchanges(dst, s, &p.counts)
	case ChoosingVoid:
		for su := tile.Man; su <= tile.Sou; su++ {
			dst = append(dst, Action{Seat: s, Type: Void, Suit: su})
		}
		return dst
	case Turn:
		return t.turnActions(dst, s)
	case ClaimWindow:
		return t.appendOffer(dst, s)
	}
	return dst
}

// AppendExchanges appends seat s's exchange choices for the tiles c, in
// the order Legal lists them: every multiset of three tiles of one suit.
// A client that keeps a seat's view from its events lists them with it.
func AppendExchanges(dst []Action, s Seat, c *tile.Counts) []Action {
	return appendExchanges(dst, s, c)
}

// appendExchanges lists every multiset of three tiles of one suit in c.
func appendExchanges(dst []Action, s Seat, c *tile.Counts) []Action {
	for su := range NumSuits {
		base := su * 9
		for a := base; a < base+9; a++ {
			if c[a] == 0 {
				continue
			}
			for b := a; b < base+9; b++ {
				if c[b] == 0 || b == a && c[a] < 2 {
					continue
				}
				for d := b; d < base+9; d++ {
					n := c[d]
					if d == b {
						n--
					}
					if d == a {
						n--
					}
					if n == 0 || n > 4 {
						continue
					}
					dst = append(dst, Action{Seat: s, Type: Exchange,
						Tiles: [3]tile.Tile{tile.Plain(tile.Kind(a)), tile.Plain(tile.Kind(b)), tile.Plain(tile.Kind(d))}})
				}
			}
		}
	}
	return dst
}

// Waiting reports whether the table waits for seat s: a seat that has not
// chosen in the exchange or the void choice, the seat to act in its turn,
// a seat with an unanswered claim offer.
func (t *Table) Waiting(s Seat) bool {
	if s >= NumSeats {
		return false
	}
	r := &t.r
	switch t.phase {
	case Exchanging, ChoosingVoid:
		return !r.seats[s].chose
	case Turn:
		return s == r.toAct
	case ClaimWindow:
		return r.offered[s] != 0 && r.answered[s] == 0
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
	if t.locked(p) {
		return append(dst, Action{Seat: s, Type: Discard, Tile: r.drawn})
	}
	if r.hasDrawn && r.liveLeft() > 0 {
		for k := range tile.Kind(numKinds) {
			x := tile.Plain(k)
			if p.counts[k] == 4 && !p.isVoid(x) {
				dst = append(dst, Action{Seat: s, Type: ClosedKan, Tile: x})
			}
			if p.counts[k] > 0 && p.ponOf(k) >= 0 {
				dst = append(dst, Action{Seat: s, Type: AddedKan, Tile: x})
			}
		}
	}
	voidOnly := t.rules.VoidFirst && p.voidTiles() > 0
	for k := range tile.Kind(numKinds) {
		x := tile.Plain(k)
		if p.counts[k] > 0 && (!voidOnly || p.isVoid(x)) {
			dst = append(dst, Action{Seat: s, Type: Discard, Tile: x})
		}
	}
	return dst
}

// Default is the action a seat that runs out of time plays, and ok is
// false when the table does not wait for it: in the exchange the three
// lowest tiles of its shortest suit that holds three; the void choice its
// suit with the fewest tiles; in its turn a tile of its void suit while it
// holds one (the last in order, the drawn tile first), else the drawn tile,
// else the last tile of its hand; in a claim window a pass. Ties go to the
// lower suit.
func (t *Table) Default(s Seat) (Action, bool) {
	if !t.Waiting(s) {
		return Action{}, false
	}
	r := &t.r
	p := &r.seats[s]
	switch t.phase {
	case Exchanging:
		return Action{Seat: s, Type: Exchange, Tiles: DefaultExchange(&p.counts)}, true
	case ChoosingVoid:
		return Action{Seat: s, Type: Void, Suit: DefaultVoid(&p.counts)}, true
	case ClaimWindow:
		return Action{Seat: s, Type: Pass}, true
	}
	hasVoid := p.voidTiles() > 0
	x := p.hand[len(p.hand)-1]
	switch {
	case t.locked(p), hasVoid && r.hasDrawn && p.isVoid(r.drawn):
		x = r.drawn
	case hasVoid:
		for _, y := range p.hand {
			if p.isVoid(y) {
				x = y
			}
		}
	case r.hasDrawn:
		x = r.drawn
	}
	return Action{Seat: s, Type: Discard, Tile: x}, true
}

// DefaultExchange returns the three lowest tiles of the suit with the
// fewest tiles among those holding at least three (a hand of 13 always has
// one).
func DefaultExchange(c *tile.Counts) [3]tile.Tile {
	n := suitTiles(c)
	best := -1
	for su := range NumSuits {
		if n[su] >= 3 && (best < 0 || n[su] < n[best]) {
			best = su
		}
	}
	var out [3]tile.Tile
	i := 0
	for k := best * 9; i < 3 && k < best*9+9; k++ {
		for range c[k] {
			if i < 3 {
				out[i] = tile.Plain(tile.Kind(k))
				i++
			}
		}
	}
	return out
}

// DefaultVoid returns the suit with the fewest tiles.
func DefaultVoid(c *tile.Counts) tile.Suit {
	n := suitTiles(c)
	best := 0
	for su := 1; su < NumSuits; su++ {
		if n[su] < n[best] {
			best = su
		}
	}
	return tile.Suit(best)
}
