// Package wall builds the walls of rounds: riichi's 136 tiles in the order
// they come off the wall, shuffled from a seed or stacked from a record, and
// the layout that says which positions are dealt, drawn, dead, dora
// indicators, ura indicators and replacement tiles; and with the same
// shuffle the 108-tile walls of Sichuan and the 144-tile walls (with
// flowers) of Chinese Official and classical mahjong (sets.go).
//
// Layout of a riichi wall's Tiles (index = position in dealing order):
//
//	[0, 52)     the deal: three passes of four tiles to each seat starting
//	            with the dealer, then one tile to each seat
//	[52, 122)   the live wall, drawn in order from 52; every kan makes it one
//	            tile shorter at its far end, so after k kans only
//	            [52, 122-k) is drawn
//	[122, 126)  the four replacement (rinshan) tiles, drawn in order
//	[126, 136)  dora indicator i at 126+2i, its ura indicator at 127+2i
//	            (i = 0 is the first indicator, 1..4 are kan dora)
package wall

import "github.com/mahjong-authority/authority/internal/tile"

// Layout positions.
const (
	Size        = 136
	DealSize    = 52
	LiveStart   = 52
	LiveEnd     = 122 // exclusive, before any kan
	RinshanBase = 122
	DoraBase    = 126
	MaxKans     = 4
	MaxDora     = 5
)

// Wall is one round's tiles in layout order, the seed they were shuffled
// from (zero for a stacked wall), and the commitment to that seed the host
// publishes before the deal (package fair; zero when it publishes none).
// The table engine forwards the commitment in its RoundStarted event and
// reveals the seed when the round ends.
type Wall struct {
	Tiles      [Size]tile.Tile
	Seed       [32]byte
	Commitment [32]byte
}

// DealPos is the position of the n-th tile (0..12) dealt to the seat that is
// `offset` seats after the dealer (0..3).
func DealPos(offset, n int) int {
	if n < 12 {
		return (n/4)*16 + offset*4 + n%4
	}
	return 48 + offset
}

// LivePos is the position of the i-th draw from the live wall (0 is the
// dealer's first draw).
func LivePos(i int) int { return LiveStart + i }

// LiveSize is how many tiles the live wall holds after kans kans.
func LiveSize(kans int) int { return LiveEnd - LiveStart - kans }

// RinshanPos is the position of the i-th replacement draw (0..3).
func RinshanPos(i int) int { return RinshanBase + i }

// DoraPos is the position of dora indicator i (0..4).
func DoraPos(i int) int { return DoraBase + 2*i }

// UraPos is the position of ura indicator i (0..4).
func UraPos(i int) int { return DoraBase + 2*i + 1 }
