package table

import (
	"math/bits"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// tileLess orders tiles by kind, a red five before the plain fives, as
// tile.Sort does.
func tileLess(a, b tile.Tile) bool { return sortKey(a) < sortKey(b) }

// sortKey is twice the kind, plus one for a tile that is not red: the
// order of tileLess as one number.
func sortKey(x tile.Tile) uint8 { return uint8(x.Kind())<<1 | uint8(^x>>7)&1 }

// add puts x into the hand, keeping it sorted.
func (p *seatState) add(x tile.Tile) {
	i := len(p.hand)
	p.hand = append(p.hand, x)
	key := sortKey(x)
	for ; i > 0 && key < sortKey(p.hand[i-1]); i-- {
		p.hand[i] = p.hand[i-1]
	}
	p.hand[i] = x
	k := x.Kind()
	p.counts[k]++
	p.held = p.held.With(k)
	if p.counts[k] >= 2 {
		p.pairs = p.pairs.With(k)
	}
}

// dealHand makes the 13 tiles ts p's hand (empty before), sorted by
// counting them under their sort keys: cheaper than 13 insertions.
func (p *seatState) dealHand(ts *[13]tile.Tile) {
	var n [2 * 64]uint8 // copies per sort key (keys are below 68)
	var present [2]uint64
	for _, x := range ts {
		key := sortKey(x) & 127
		n[key]++
		present[key>>6] |= 1 << (key & 63)
	}
	p.hand = p.handBuf[:0]
	for w, bits64 := range present {
		for ; bits64 != 0; bits64 &= bits64 - 1 {
			key := 64*w + bits.TrailingZeros64(bits64)
			x := tile.Plain(tile.Kind(key >> 1))
			if key&1 == 0 { // a red five (see sortKey)
				x = tile.RedOf(x.Kind())
			}
			for range n[key] {
				p.hand = append(p.hand, x)
			}
			k := x.Kind()
			p.counts[k] += n[key]
			p.held = p.held.With(k)
			if p.counts[k] >= 2 {
				p.pairs = p.pairs.With(k)
			}
		}
	}
}

// remove takes one copy of exactly x out of the hand; it reports whether
// there was one.
func (p *seatState) remove(x tile.Tile) bool {
	for i, y := range p.hand {
		if y == x {
			p.hand = append(p.hand[:i], p.hand[i+1:]...)
			k := x.Kind()
			p.counts[k]--
			if p.counts[k] < 2 {
				p.pairs = p.pairs.Without(k)
				if p.counts[k] == 0 {
					p.held = p.held.Without(k)
				}
			}
			return true
		}
	}
	return false
}

// chiKinds returns the kinds p could chi: those whose other two kinds of
// some run p holds, within a suit. It works on the bits of the kinds held
// (kind k is bit k), shifted so that bit k lines up with k's neighbours.
func (p *seatState) chiKinds() tile.KindSet {
	h := uint64(p.held)
	return tile.KindSet(h>>1&(h>>2)&runLow | // k+1 and k+2: k numbers 1..7
		h<<1&(h>>1)&runMid | // k-1 and k+1: 2..8
		h<<2&(h<<1)&runHigh) // k-2 and k-1: 3..9
}

// The kinds of the three suits numbered 1..7, 2..8 and 3..9.
const (
	runLow  = 0x7f | 0x7f<<9 | 0x7f<<18
	runMid  = runLow << 1
	runHigh = runLow << 2
)

// holds reports whether the hand holds exactly x: a kind it holds, and for
// a five, the red or plain face asked.
func (p *seatState) holds(x tile.Tile) bool {
	k := x.Kind()
	switch {
	case k >= tile.NumKinds || p.counts[k] == 0:
		return false
	case k != tile.M5 && k != tile.P5 && k != tile.S5:
		return !x.Red()
	}
	return p.has(x) > 0
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
	p.judgeShanten = judge.Shanten(&p.counts)
	p.shanten, p.waits = tenpaiOf(p, &p.counts, p.judgeShanten)
}

// tenpai returns the shanten and the waits of the 3n+1 tiles c held by p. A
// kind p holds all four of does not count as a wait (Tenhou: such a hand is
// not tenpai on it).
func tenpai(p *seatState, c *tile.Counts) (int, tile.KindSet) {
	return tenpaiOf(p, c, judge.Shanten(c))
}

// tenpaiOf is tenpai for a hand whose judge.Shanten is sh.
func tenpaiOf(p *seatState, c *tile.Counts, sh int) (int, tile.KindSet) {
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
