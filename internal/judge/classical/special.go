package classical

import "github.com/mahjong-authority/authority/internal/tile"

// The special hands are read off the counts of 14 concealed tiles (13 for
// fishing) kind by kind. Each is a fixed pattern of at most 13 kinds, so a
// check is a dozen comparisons.

// yaochu are the thirteen kinds of a Unique Wonder: the terminals and the
// honours.
var yaochu = [13]tile.Kind{tile.M1, tile.M9, tile.P1, tile.P9, tile.S1, tile.S9,
	tile.East, tile.South, tile.West, tile.North, tile.Haku, tile.Hatsu, tile.Chun}

// isWrigglySnake reports whether the 14 tiles c are a Wriggly Snake in
// some suit: each of 1-9 of the suit and E, S, W, N held, and nothing else
// (so exactly one of them twice).
func isWrigglySnake(c *tile.Counts) bool {
	for s := 0; s < 3; s++ {
		if wrigglyIn(c, s, 14) {
			return true
		}
	}
	return false
}

// wrigglyIn reports whether c holds n tiles, all of them kinds of a
// Wriggly Snake in suit s, each of the thirteen at least once.
func wrigglyIn(c *tile.Counts, s, n int) bool {
	sum := 0
	for k := tile.Kind(9 * s); k < tile.Kind(9*s+9); k++ {
		if c[k] == 0 {
			return false
		}
		sum += int(c[k])
	}
	for k := tile.East; k <= tile.North; k++ {
		if c[k] == 0 {
			return false
		}
		sum += int(c[k])
	}
	return sum == n && c.Total() == n
}

// isUniqueWonder reports whether the 14 tiles c are the thirteen terminals
// and honours, each at least once, and nothing else.
func isUniqueWonder(c *tile.Counts) bool {
	sum := 0
	for _, k := range yaochu {
		if c[k] == 0 {
			return false
		}
		sum += int(c[k])
	}
	return sum == 14 && c.Total() == 14
}

// isGatesOfHeaven reports whether the 14 tiles c are 1112345678999 of one
// suit and one more of its 2-8.
func isGatesOfHeaven(c *tile.Counts) bool {
	for s := 0; s < 3; s++ {
		b := tile.Kind(9 * s)
		if c[b] != 3 || c[b+8] != 3 {
			continue
		}
		mid := 0
		ok := true
		for k := b + 1; k < b+8; k++ {
			ok = ok && c[k] >= 1
			mid += int(c[k])
		}
		if ok && mid == 8 && c.Total() == 14 {
			return true
		}
	}
	return false
}

// SpecialOf returns the special hand the 14 concealed tiles c form, or
// NoSpecial. The patterns exclude each other. A hand with melds is never a
// special hand: they are all concealed.
func SpecialOf(c *tile.Counts) Special {
	switch {
	case isWrigglySnake(c):
		return WrigglySnake
	case isUniqueWonder(c):
		return UniqueWonder
	case isGatesOfHeaven(c):
		return GatesOfHeaven
	}
	return NoSpecial
}

// Fishing holds, for each special hand, the kinds that complete it: the
// special hands a 13-tile hand is fishing for. Waits[s-1] belongs to
// Special s.
type Fishing struct {
	Waits [NumSpecials]tile.KindSet
}

// For returns the kinds that complete special hand s.
func (f *Fishing) For(s Special) tile.KindSet {
	if s == NoSpecial || s >= numSpecials {
		return 0
	}
	return f.Waits[s-1]
}

// Any reports whether the hand is fishing for some special hand.
func (f *Fishing) Any() bool {
	return f.Waits != [NumSpecials]tile.KindSet{}
}

// Specials calls yield for each special hand fished for, in the
// contract's order, with the kinds that complete it.
func (f *Fishing) Specials(yield func(Special, tile.KindSet) bool) {
	for i, w := range f.Waits {
		if w != 0 && !yield(Special(i+1), w) {
			return
		}
	}
}

// FishingFor returns the special hands hand h is one tile from, with the
// tiles that complete each: h must be 13 concealed tiles without melds (the
// special hands are concealed); any other hand fishes for none. A kind
// the hand holds four of never completes one of them.
func FishingFor(h *Hand) Fishing {
	var f Fishing
	if len(h.Melds) != 0 || h.Concealed.Total() != 13 {
		return f
	}
	c := h.Concealed
	for s := 0; s < 3; s++ {
		// A snake in suit s: the 13 tiles lie among its thirteen kinds.
		if !spreadIn(&c, s) {
			continue
		}
		for k := tile.Kind(9 * s); k < tile.Kind(9*s+9); k++ {
			f.Waits[WrigglySnake-1] |= tryWith(&c, k, isWrigglySnake)
		}
		for k := tile.East; k <= tile.North; k++ {
			f.Waits[WrigglySnake-1] |= tryWith(&c, k, isWrigglySnake)
		}
	}
	for _, k := range yaochu {
		f.Waits[UniqueWonder-1] |= tryWith(&c, k, isUniqueWonder)
	}
	for s := 0; s < 3; s++ {
		b := tile.Kind(9 * s)
		if c[b] < 2 || c[b+8] < 2 {
			continue
		}
		for k := b; k <= b+8; k++ {
			f.Waits[GatesOfHeaven-1] |= tryWith(&c, k, isGatesOfHeaven)
		}
	}
	return f
}

// spreadIn reports whether every tile of c is a kind of a Wriggly Snake in
// suit s.
func spreadIn(c *tile.Counts, s int) bool {
	sum := 0
	for k := tile.Kind(9 * s); k < tile.Kind(9*s+9); k++ {
		sum += int(c[k])
	}
	for k := tile.East; k <= tile.North; k++ {
		sum += int(c[k])
	}
	return sum == c.Total()
}

// tryWith returns {k} when c with one more k passes is, else nothing.
func tryWith(c *tile.Counts, k tile.Kind, is func(*tile.Counts) bool) tile.KindSet {
	if c[k] >= 4 {
		return 0
	}
	c[k]++
	ok := is(c)
	c[k]--
	if ok {
		return tile.KindSet(1) << k
	}
	return 0
}

// snakeShanten is how many tiles the concealed tiles c (13 or 14) are from
// fishing for a Wriggly Snake: 13 less the snake kinds held, less one if
// one of them is held twice or more, at the best suit.
func snakeShanten(c *tile.Counts) int {
	winds, windPair := 0, false
	for k := tile.East; k <= tile.North; k++ {
		if c[k] != 0 {
			winds++
			windPair = windPair || c[k] >= 2
		}
	}
	best := 13
	for b := tile.Kind(0); b < 27; b += 9 {
		kinds, pair := winds, windPair
		for k := b; k < b+9; k++ {
			if c[k] != 0 {
				kinds++
				pair = pair || c[k] >= 2
			}
		}
		if pair {
			kinds++
		}
		best = min(best, 13-kinds)
	}
	return best
}
