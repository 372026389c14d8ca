package table

import (
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// tileLess orders tiles by kind, a red five before the plain fives, as
// tile.Sort does.
func tileLess(a, b tile.Tile) bool {
	if a.Kind() != b.Kind() {
		return a.Kind() < b.Kind()
	}
	return a.Red() && !b.Red()
}

// add puts x into the hand, keeping it sorted.
func (p *seatState) add(x tile.Tile) {
	i := len(p.hand)
	p.hand = append(p.hand, x)
	for ; i > 0 && tileLess(x, p.hand[i-1]); i-- {
		p.hand[i] = p.hand[i-1]
	}
	p.hand[i] = x
	p.counts[x.Kind()]++
}

// remove takes one copy of exactly x out of the hand; it reports whether
// there was one.
func (p *seatState) remove(x tile.Tile) bool {
	for i, y := range p.hand {
		if y == x {
			p.hand = append(p.hand[:i], p.hand[i+1:]...)
			p.counts[x.Kind()]--
			return true
		}
	}
	return false
}

// has counts the copies of exactly x in the hand.
func (p *seatState) has(x tile.Tile) int {
	n := 0
	for _, y := range p.hand {
		if y == x {
			n++
		}
	}
	return n
}

// removeTile returns ts without its first copy of x.
func removeTile(ts []tile.Tile, x tile.Tile) []tile.Tile {
	for i, y := range ts {
		if y == x {
			return append(ts[:i], ts[i+1:]...)
		}
	}
	return ts
}

// closed reports whether the hand has no open meld.
func (p *seatState) closed() bool {
	for _, m := range p.melds {
		if m.Open() {
			return false
		}
	}
	return true
}

// updateWaits recomputes the shanten and the waits of a 3n+1 hand: the
// judge runs once per change of the hand, not once per question.
func (p *seatState) updateWaits() {
	p.shanten, p.waits = tenpai(p, &p.counts)
}

// tenpai returns the shanten and the waits of the 3n+1 tiles c held by p. A
// kind p holds all four of does not count as a wait (Tenhou: such a hand is
// not tenpai on it).
func tenpai(p *seatState, c *tile.Counts) (int, tile.KindSet) {
	sh := judge.Shanten(c)
	if sh != 0 {
		return sh, 0
	}
	w := judge.Waits(c)
	for k := range w.All() {
		if int(c[k])+p.meldCount(k) >= 4 {
			w = w.Without(k)
		}
	}
	if w == 0 {
		// Tenpai only on tiles it holds all four of: not tenpai.
		return 1, 0
	}
	return 0, w
}

// meldCount counts the tiles of kind k in p's melds.
func (p *seatState) meldCount(k tile.Kind) int {
	n := 0
	for _, m := range p.melds {
		for _, x := range m.Tiles[:m.Len()] {
			if x.Kind() == k {
				n++
			}
		}
	}
	return n
}

// furiten reports whether p may not ron: a wait among its own discards, a
// winning tile passed since its last discard, or one passed after riichi.
func (p *seatState) furiten() bool {
	return p.tempFuriten || p.riichiFurit || p.waits&p.discarded != 0
}

// addMeld records a meld in both views.
func (p *seatState) addMeld(m Meld) {
	p.jmelds[len(p.melds)] = m.Meld
	p.melds = append(p.melds, m)
}

// yaochuKinds counts the distinct terminal and honour kinds in c.
func yaochuKinds(c *tile.Counts) int {
	n := 0
	for k := range tile.Yaochu.All() {
		if c[k] > 0 {
			n++
		}
	}
	return n
}

// sortTiles sorts a few tiles in place (insertion sort: no allocation).
func sortTiles(ts []tile.Tile) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && tileLess(ts[j], ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// judgeShanten is the shanten of p's whole concealed hand.
func judgeShanten(p *seatState) int { return judge.Shanten(&p.counts) }
