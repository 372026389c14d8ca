// Package judge holds the rules brain of the authority: pure functions of a
// hand and a situation. It tells whether a hand is complete, how far it is
// from tenpai (shanten), which tiles complete it (waits), every way it can be
// read (decompositions), and what a win is worth under a rule set.
//
// Nothing here keeps state between calls. The analysis functions take count
// arrays of the concealed tiles only: declared melds never change whether the
// rest of the hand is complete, and how many there are follows from the
// number of concealed tiles (14, 11, 8, 5 or 2 at a win).
package judge

import "github.com/mahjong-authority/authority/internal/tile"

// Complete reports whether the concealed tiles c (3n+2 of them) form a
// winning shape: n sets and a pair, or, with no melds (14 tiles), seven
// distinct pairs or thirteen orphans.
func Complete(c *tile.Counts) bool {
	return slowComplete(c)
}

// Shanten returns how many tiles the concealed tiles c (3n+1 or 3n+2 of them)
// are from tenpai: 0 is tenpai, -1 is a complete hand. It is the least of
// the standard, seven-pairs and thirteen-orphans numbers; the last two count
// only for hands without melds.
func Shanten(c *tile.Counts) int {
	return slowShanten(c)
}

// Waits returns every kind that completes the concealed tiles c (3n+1 of
// them), including a kind the hand already holds all four of: whether such
// a wait counts is the table's business.
func Waits(c *tile.Counts) tile.KindSet {
	return slowWaits(c)
}
