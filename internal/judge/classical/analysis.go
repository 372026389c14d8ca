package classical

import (
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ShantenUnreachable is the shanten number of a hand with the wrong number
// of tiles for its melds.
const ShantenUnreachable = judge.ShantenUnreachable

// Shanten returns how many tiles hand h (13 concealed tiles less 3 per
// meld, or one more) is from fishing: 0 is fishing (one tile from Mah
// Jong), -1 a complete hand. It is the least of the standard number (four
// sets and a pair) and, for a hand without melds, those of the Wriggly
// Snake and the Unique Wonder (the Gates of Heaven are four sets and a
// pair, never nearer than the standard shape). Seven pairs is no classical
// hand.
func Shanten(h *Hand) int {
	n := h.Concealed.Total()
	size := 13 - 3*len(h.Melds)
	if len(h.Melds) > 4 || (n != size && n != size+1) {
		return ShantenUnreachable
	}
	c := h.Concealed
	s := judge.ShantenStandard(&c)
	if len(h.Melds) == 0 {
		s = min(s, judge.ShantenThirteenOrphans(&c), snakeShanten(&c))
	}
	return s
}

// Waits returns every kind that completes hand h (13 concealed tiles less
// 3 per meld) as four sets and a pair or, without melds, as a special
// hand; a kind the hand holds all four of included (whether such a wait
// counts is the table's business). Another number of tiles waits on
// nothing.
func Waits(h *Hand) tile.KindSet {
	if len(h.Melds) > 4 || h.Concealed.Total() != 13-3*len(h.Melds) {
		return 0
	}
	c := h.Concealed
	// The riichi judge's waits hold every standard wait and, for 13 tiles,
	// the thirteen-orphans (Unique Wonder) waits, and seven-pairs waits,
	// which are filtered out here unless they complete a standard shape.
	cand := judge.Waits(&c)
	var w tile.KindSet
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		if !cand.Has(k) {
			continue
		}
		c[k]++
		if judge.ShantenStandard(&c) == -1 || (len(h.Melds) == 0 && isUniqueWonder(&c)) {
			w |= tile.KindSet(1) << k
		}
		c[k]--
	}
	if len(h.Melds) == 0 {
		f := FishingFor(h)
		for _, fw := range f.Waits {
			w |= fw
		}
	}
	return w
}

// complete reports whether the concealed tiles c (with the winning tile)
// and the melds are Mah Jong: four sets and a pair, or a special hand.
func complete(c *tile.Counts, melds int) bool {
	return judge.ShantenStandard(c) == -1 || (melds == 0 && SpecialOf(c) != NoSpecial)
}
