package mcr

import (
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Tenpai questions. MCR adds forms to riichi's: seven pairs may hold four
// of a kind (two pairs), and a hand can be honours and knitted tiles, or a
// knitted straight with a set and a pair (with at most one meld). These
// functions take the concealed tiles c, 13 or 14 less 3 per meld; the
// number of melds follows from their count.

// meldsOf is the number of melds beside n concealed tiles.
func meldsOf(n int) int { return (14 - n) / 3 }

// Shanten is how many tiles c are from tenpai in MCR (0 tenpai, -1
// complete): the least over the standard form, seven pairs, thirteen
// orphans, honours and knitted tiles and the knitted straight.
func Shanten(c *tile.Counts) int {
	s := judge.ShantenStandard(c)
	n := c.Total()
	if n >= 13 {
		s = min(s, SevenPairsShanten(c), judge.ShantenThirteenOrphans(c), HonorsAndKnittedShanten(c))
	}
	if n >= 10 {
		s = min(s, KnittedStraightShanten(c))
	}
	return s
}

// SevenPairsShanten is 6 less the pairs of c (four of a kind are two), for
// a hand without melds; judge.ShantenUnreachable otherwise.
func SevenPairsShanten(c *tile.Counts) int {
	if n := c.Total(); n < 13 || n > 14 {
		return judge.ShantenUnreachable
	}
	pairs := 0
	for _, v := range c {
		pairs += int(v / 2)
	}
	return 6 - min(pairs, 7)
}

// HonorsAndKnittedShanten is the shanten number for honours and knitted
// tiles: 13 less the kinds held of the best knitted straight's nine and
// the seven honours, for a hand without melds.
func HonorsAndKnittedShanten(c *tile.Counts) int {
	if n := c.Total(); n < 13 || n > 14 {
		return judge.ShantenUnreachable
	}
	honors := 0
	for k := tile.East; k < tile.NumKinds; k++ {
		if c[k] != 0 {
			honors++
		}
	}
	best := 0
	for i := range knittedPatterns {
		in := 0
		for _, cd := range knittedPatterns[i] {
			if c[codeKind[cd]] != 0 {
				in++
			}
		}
		best = max(best, in)
	}
	return 13 - min(best+honors, 14)
}

// KnittedStraightShanten is the shanten number for a knitted straight
// with a set and a pair (with no meld), or a pair (with one): the tiles
// missing from the best knitted straight, plus what the rest needs.
func KnittedStraightShanten(c *tile.Counts) int {
	n := c.Total()
	need := 1 - meldsOf(n) // sets besides the knitted straight
	if n < 10 || n > 14 || need < 0 {
		return judge.ShantenUnreachable
	}
	best := judge.ShantenUnreachable
	for i := range knittedPatterns {
		rest := *c
		missing := 0
		for _, cd := range knittedPatterns[i] {
			k := codeKind[cd]
			if rest[k] != 0 {
				rest[k]--
			} else {
				missing++
			}
		}
		best = min(best, missing+restShanten(&rest, need))
	}
	return best
}

// restShanten is the standard shanten of tiles that must give need sets
// (0 or 1) and a pair: 2*need - 2*sets - partial sets - pair at best.
func restShanten(r *tile.Counts, need int) int {
	best := 2*need - pairBonus(r)
	if need == 0 {
		return best
	}
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		if r[k] == 0 {
			continue
		}
		// A whole set.
		if r[k] >= 3 {
			r[k] -= 3
			best = min(best, -pairBonus(r))
			r[k] += 3
		}
		if chowStart(k) && r[k+1] != 0 && r[k+2] != 0 {
			r[k]--
			r[k+1]--
			r[k+2]--
			best = min(best, -pairBonus(r))
			r[k]++
			r[k+1]++
			r[k+2]++
		}
		// A partial set: a pair, two in a row, two with a gap.
		for _, d := range [...]tile.Kind{0, 1, 2} {
			switch {
			case d == 0 && r[k] < 2:
				continue
			case d > 0 && (k >= 27 || k%9+d > 8 || r[k+d] == 0):
				continue // not two of one suit close enough
			}
			r[k]--
			r[k+d]--
			best = min(best, 1-pairBonus(r))
			r[k]++
			r[k+d]++
		}
	}
	return best
}

// pairBonus is 1 if r holds a pair.
func pairBonus(r *tile.Counts) int {
	for _, v := range r {
		if v >= 2 {
			return 1
		}
	}
	return 0
}

func chowStart(k tile.Kind) bool { return k < 27 && k%9 <= 6 }

// Complete reports whether the concealed tiles c (14 less 3 per meld)
// make a winning hand of any MCR form.
func Complete(c *tile.Counts) bool {
	n := c.Total()
	if n%3 != 2 || n > 14 {
		return false
	}
	if judge.Complete(c) {
		return true
	}
	if n == 14 && (SevenPairsShanten(c) == -1 || HonorsAndKnittedShanten(c) == -1) {
		return true
	}
	return n >= 11 && knittedComplete(c)
}

// knittedComplete: a knitted straight and a set and a pair (14 tiles) or a
// pair (11 tiles, beside a meld).
func knittedComplete(c *tile.Counts) bool {
	for i := range knittedPatterns {
		rest := *c
		ok := true
		for _, cd := range knittedPatterns[i] {
			k := codeKind[cd]
			if rest[k] == 0 {
				ok = false
				break
			}
			rest[k]--
		}
		if ok && judge.Complete(&rest) {
			return true
		}
	}
	return false
}

// Waits returns every kind that completes c (13 less 3 per meld concealed
// tiles) in some MCR form, including a kind the hand holds all four of.
func Waits(c *tile.Counts) tile.KindSet {
	if c.Total()%3 != 1 {
		return 0
	}
	var w tile.KindSet
	d := *c
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		d[k]++
		if Complete(&d) {
			w = w.With(k)
		}
		d[k]--
	}
	return w
}
