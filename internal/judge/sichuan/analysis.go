package sichuan

import (
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ShantenUnreachable is the shanten number of a hand whose size does not fit
// its melds: larger than any real shanten number.
const ShantenUnreachable = judge.ShantenUnreachable

// live returns the concealed tiles of h without its void suit, and how many
// void tiles it dropped.
func (h *Hand) live() (c tile.Counts, void int) {
	c = h.Concealed
	lo, hi := h.voidRange()
	for k := lo; k < hi; k++ {
		void += int(c[k])
		c[k] = 0
	}
	return c, void
}

// size reports whether the concealed tiles fit the melds: 13 less 3 per
// meld, or one more (after a draw). drawn tells which.
func (h *Hand) size() (drawn, ok bool) {
	nm := len(h.Melds)
	if nm > 4 {
		return false, false
	}
	switch h.Concealed.Total() {
	case 13 - 3*nm:
		return false, true
	case 14 - 3*nm:
		return true, true
	}
	return false, false
}

// Shanten returns how many tiles h is from tenpai over its two live suits:
// 0 is tenpai, -1 a complete hand. Void-suit tiles are dead: each must
// leave the hand, so a hand that holds one is never tenpai (or complete)
// before it is gone, and each counts as a tile to replace. Seven pairs
// (four of a kind are two pairs) count only without melds. Melds count as
// sets whatever their suit (a meld of the void suit, which no table
// allows, cannot leave the hand: Waits are then empty). A hand whose size
// does not fit its melds is ShantenUnreachable.
func Shanten(h *Hand) int {
	if _, ok := h.size(); !ok {
		return ShantenUnreachable
	}
	c, _ := h.live()
	s := judge.ShantenStandardSets(&c, 4-len(h.Melds))
	if len(h.Melds) == 0 {
		s = min(s, sevenPairsShanten(&c))
	}
	return s
}

// sevenPairsShanten is the seven-pairs shanten number of the live tiles c
// of a hand without melds: the tiles to gain for seven pairs, less one.
// A pair already held costs nothing, a single one tile, a new pair two.
func sevenPairsShanten(c *tile.Counts) int {
	pairs, singles := 0, 0
	for _, v := range c {
		pairs += int(v / 2)
		singles += int(v & 1)
	}
	need := 7 - min(pairs, 7)
	one := min(singles, need)
	return one + 2*(need-one) - 1
}

// Waits returns every kind that completes h, a hand between turns (13 tiles
// less 3 per meld): as four sets and a pair, or, without melds, as seven
// pairs. A hand that holds a void tile waits on nothing; a void kind never
// completes a hand. A kind the hand holds all four of may be among the
// waits (see Ready).
func Waits(h *Hand) tile.KindSet {
	if drawn, ok := h.size(); !ok || drawn || HoldsVoid(h) {
		return 0
	}
	c := h.Concealed
	for k := tile.Kind(27); k < tile.NumKinds; k++ {
		if c[k] != 0 {
			return 0 // honours are no Sichuan tiles
		}
	}
	w := judge.Waits(&c)
	if len(h.Melds) == 0 {
		w |= sevenPairsWait(&c)
	}
	return w
}

// sevenPairsWait is the wait of 13 tiles that are six pairs (four of a kind
// counting two) and one odd kind: that kind.
func sevenPairsWait(c *tile.Counts) tile.KindSet {
	var w tile.KindSet
	for k, v := range c {
		if v&1 != 0 {
			if w != 0 {
				return 0
			}
			w = w.With(tile.Kind(k))
		}
	}
	return w
}

// liveWaits is Waits without the kinds the seat holds all four of,
// concealed or melded: no such tile can come.
func liveWaits(h *Hand) tile.KindSet {
	w := Waits(h)
	if w == 0 {
		return 0
	}
	all := h.Concealed
	for _, m := range h.Melds {
		if m.Kind < tile.NumKinds {
			all[m.Kind] += uint8(m.Len())
		}
	}
	for k := range w.All() {
		if all[k] >= 4 {
			w = w.Without(k)
		}
	}
	return w
}

// Ready reports whether h (between turns) is tenpai in the table's sense:
// it holds no void tile and waits on a kind of which a tile can still come,
// one it does not hold all four of itself.
func Ready(h *Hand) bool { return liveWaits(h) != 0 }

// CanWin reports whether h (between turns, without t) may win on tile kind
// t: t is not of the void suit, h holds none of it, and t completes h. A
// fifth tile of a kind does not exist: h cannot win on a kind it holds all
// four of. CanWin says nothing of the table's own conditions (a seat that
// passed a win).
func CanWin(h *Hand, t tile.Kind) bool {
	if t >= 27 || h.isVoid(t) || HoldsVoid(h) {
		return false
	}
	if drawn, ok := h.size(); !ok || drawn {
		return false
	}
	c := h.Concealed
	c[t]++
	held := c[t]
	for _, m := range h.Melds {
		if m.Kind == t {
			held += uint8(m.Len())
		}
	}
	if held > 4 {
		return false
	}
	for k := tile.Kind(27); k < tile.NumKinds; k++ {
		if c[k] != 0 {
			return false // honours are no Sichuan tiles
		}
	}
	w := lanes(&c)
	return len(h.Melds) == 0 && sevenPairs(&w) || judge.Complete(&c)
}

// BestValue is the most h (between turns) could win on a discard without
// situational fans, over the kinds of which a tile can still come, capped
// by r: what a seat not ready pays it at an exhaustive draw (查大叫). It is
// 0 when h is not ready.
func BestValue(h *Hand, r *Rules) int {
	best := 0
	var s Situation
	for k := range liveWaits(h).All() {
		if res := Score(h, k, &s, r); res.Win && res.Value > best {
			best = res.Value
		}
	}
	return best
}
