package mcr

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// Hands are kept sorted: with no red fives a tile is its kind, and flowers
// never stay in a hand.

func (p *seatState) add(x tile.Tile) {
	i := len(p.hand)
	p.hand = append(p.hand, x)
	for i > 0 && p.hand[i-1] > x {
		p.hand[i] = p.hand[i-1]
		i--
	}
	p.hand[i] = x
	p.counts[x.Kind()]++
}

func (p *seatState) remove(x tile.Tile) {
	for i, y := range p.hand {
		if y == x {
			copy(p.hand[i:], p.hand[i+1:])
			p.hand = p.hand[:len(p.hand)-1]
			p.counts[x.Kind()]--
			return
		}
	}
}

func (p *seatState) has(x tile.Tile) int { return int(p.counts[x.Kind()]) }

// ponOf returns the index of p's pung of kind k, or -1.
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
		n += m.count(k)
	}
	return n
}
