package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// Hands are kept sorted by kind: with no red fives a tile is its kind.

// setHand makes ts (at most 14 tiles) p's hand: counted, then written out
// in order.
func (p *seatState) setHand(ts []tile.Tile) {
	p.counts, p.held, p.four = tile.Counts{}, 0, 0
	for _, x := range ts {
		p.counts[x.Kind()]++
	}
	p.hand = p.handBuf[:0]
	for k := range tile.Kind(numKinds) {
		n := p.counts[k]
		if n == 0 {
			continue
		}
		p.held = p.held.With(k)
		if n == 4 {
			p.four = p.four.With(k)
		}
		for range n {
			p.hand = append(p.hand, tile.Plain(k))
		}
	}
}

func (p *seatState) add(x tile.Tile) {
	i := len(p.hand)
	p.hand = append(p.hand, x)
	for i > 0 && p.hand[i-1] > x {
		p.hand[i] = p.hand[i-1]
		i--
	}
	p.hand[i] = x
	k := x.Kind()
	p.counts[k]++
	p.held = p.held.With(k)
	if p.counts[k] == 4 {
		p.four = p.four.With(k)
	}
}

func (p *seatState) remove(x tile.Tile) {
	for i, y := range p.hand {
		if y == x {
			copy(p.hand[i:], p.hand[i+1:])
			p.hand = p.hand[:len(p.hand)-1]
			k := x.Kind()
			p.counts[k]--
			p.four = p.four.Without(k)
			if p.counts[k] == 0 {
				p.held = p.held.Without(k)
			}
			return
		}
	}
}

func (p *seatState) has(x tile.Tile) int { return int(p.counts[x.Kind()]) }

// voidTiles counts the tiles of p's void suit in its hand.
func (p *seatState) voidTiles() int {
	if !p.voidSet {
		return 0
	}
	n := 0
	base := int(p.void) * 9
	for k := base; k < base+9; k++ {
		n += int(p.counts[k])
	}
	return n
}

// isVoid reports whether x is of p's void suit.
func (p *seatState) isVoid(x tile.Tile) bool { return p.voidSet && x.Kind().Suit() == p.void }

// ponOf returns the index of p's pon of kind k, or -1.
func (p *seatState) ponOf(k tile.Kind) int {
	for i, m := range p.melds {
		if m.Type == MeldPon && m.Kind == k {
			return i
		}
	}
	return -1
}

// meldCount counts the tiles of kind k in p's melds.
func (p *seatState) meldCount(k tile.Kind) int {
	n := 0
	for _, m := range p.melds {
		if m.Kind == k {
			n += m.Len()
		}
	}
	return n
}

func sortTiles(ts []tile.Tile) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j-1] > ts[j]; j-- {
			ts[j-1], ts[j] = ts[j], ts[j-1]
		}
	}
}

// suitTiles counts p's tiles of each suit in hand.
func suitTiles(c *tile.Counts) [NumSuits]int {
	var n [NumSuits]int
	for k := range 27 {
		n[k/9] += int(c[k])
	}
	return n
}
