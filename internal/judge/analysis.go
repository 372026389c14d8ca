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

import (
	"encoding/binary"
	"math/bits"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The analysis functions look the hand's three suits and its honours up in
// the part tables of suittable.go and combine the answers; seven pairs and
// thirteen orphans are read off the counts eight kinds at a time. None of
// them allocates. The first call in a process builds the tables (about
// 50 ms and 1.5 MB; see BenchmarkBuildTables).
//
// Counts no hand can have get an answer all the same: with more than four
// of a kind, or 3n tiles, the slow search of slow.go gives it (the fast
// code agrees with it on every real hand); more than 14 tiles, too many for
// that search to be cheap, are never complete, wait on nothing and are
// ShantenUnreachable.

// Complete reports whether the concealed tiles c (3n+2 of them) form a
// winning shape: n sets and a pair, or, with no melds (14 tiles), seven
// distinct pairs or thirteen orphans.
func Complete(c *tile.Counts) bool {
	t := loadTables()
	var hp handParts
	total, ok := t.analysable(c, &hp)
	if !ok {
		return !oversized(c) && slowComplete(c)
	}
	if total%3 != 2 {
		return false
	}
	// Each part splits into sets, and exactly one of them into sets and a
	// pair. A part's tile count decides which of the two it can be.
	i0, i1, i2, i3 := t.numInfo[hp.idx[0]], t.numInfo[hp.idx[1]], t.numInfo[hp.idx[2]], t.honInfo[hp.idx[3]]
	const split = infoSets | infoPair
	if i0&split != 0 && i1&split != 0 && i2&split != 0 && i3&split != 0 &&
		(i0&infoPair+i1&infoPair+i2&infoPair+i3&infoPair) == infoPair {
		return true
	}
	if total != 14 {
		return false
	}
	w := countLanes(c)
	return sevenPairsComplete(&w) || thirteenOrphansComplete(&w)
}

// Shanten returns how many tiles the concealed tiles c (3n+1 or 3n+2 of them)
// are from tenpai: 0 is tenpai, -1 is a complete hand. It is the least of
// the standard, seven-pairs and thirteen-orphans numbers; the last two count
// only for hands without melds.
func Shanten(c *tile.Counts) int {
	t := loadTables()
	var hp handParts
	total, ok := t.analysable(c, &hp)
	if !ok {
		if oversized(c) {
			return ShantenUnreachable
		}
		return slowShanten(c)
	}
	s := t.standard(&hp, total)
	if total >= 13 {
		w := countLanes(c)
		s = min(s, sevenPairsShanten(&w), thirteenOrphansShanten(&w))
	}
	return s
}

// ShantenStandard is the shanten number of c (3n+1 or 3n+2 concealed tiles,
// the melds implied) counting only the shape of n sets and a pair:
// 8 - 2*sets - partial sets - pair at its best, melds counted as sets.
// A set may be one that needs a fifth tile of a kind, as in the waits.
func ShantenStandard(c *tile.Counts) int {
	t := loadTables()
	var hp handParts
	total, ok := t.analysable(c, &hp)
	if !ok {
		if oversized(c) {
			return ShantenUnreachable
		}
		return slowShantenStandard(c)
	}
	return t.standard(&hp, total)
}

// ShantenStandardSets is the standard shanten number of the concealed
// tiles c when, beside the melds, they must make sets sets and a pair,
// whatever number of tiles c holds: a slot c leaves empty is one more tile
// to gain. It lets a rule set with dead tiles ask about the live ones alone
// (Sichuan's void suit, whose tiles must all leave the hand). sets is 0..4;
// c must hold at most four of a kind and at most 14 tiles of a suit, or the
// result is ShantenUnreachable.
func ShantenStandardSets(c *tile.Counts, sets int) int {
	t := loadTables()
	var hp handParts
	if sets < 0 || sets > 4 || !t.parts(c, &hp) {
		return ShantenUnreachable
	}
	u := t.unite(t.unite(t.numShanten[hp.idx[0]], t.numShanten[hp.idx[1]]),
		t.unite(t.numShanten[hp.idx[2]], t.honShanten[hp.idx[3]]))
	return int(t.vecs[u][5+sets]) - 1
}

// ShantenSevenPairs is the shanten number of c for seven distinct pairs:
// 6 - pairs, plus one for each kind short of seven held at all (four of a
// kind are one pair). The shape needs a hand without melds: for fewer than
// 13 tiles (or more than 14) the result is ShantenUnreachable.
func ShantenSevenPairs(c *tile.Counts) int {
	if n := c.Total(); n < 13 || n > suitMaxTiles {
		return ShantenUnreachable
	}
	w := countLanes(c)
	return sevenPairsShanten(&w)
}

// ShantenThirteenOrphans is the shanten number of c for thirteen orphans:
// 13 - terminal and honour kinds held - 1 if one of them is paired. Like
// ShantenSevenPairs, it is ShantenUnreachable unless c has 13 or 14 tiles.
func ShantenThirteenOrphans(c *tile.Counts) int {
	if n := c.Total(); n < 13 || n > suitMaxTiles {
		return ShantenUnreachable
	}
	w := countLanes(c)
	return thirteenOrphansShanten(&w)
}

// ShantenUnreachable is the shanten number of a shape a hand cannot reach:
// seven pairs or thirteen orphans beside melds. It is larger than any real
// shanten number, so a minimum over shapes ignores it.
const ShantenUnreachable = 99

// oversized reports whether c holds more tiles than any hand.
func oversized(c *tile.Counts) bool { return c.Total() > suitMaxTiles }

// Waits returns every kind that completes the concealed tiles c (3n+1 of
// them), including a kind the hand already holds all four of: whether such
// a wait counts is the table's business.
func Waits(c *tile.Counts) tile.KindSet {
	t := loadTables()
	var hp handParts
	total, ok := t.analysable(c, &hp)
	if !ok {
		if oversized(c) {
			return 0
		}
		return slowWaits(c)
	}
	if total%3 != 1 {
		return 0
	}
	var info [4]uint16
	info[0], info[1], info[2], info[3] = t.numInfo[hp.idx[0]], t.numInfo[hp.idx[1]], t.numInfo[hp.idx[2]], t.honInfo[hp.idx[3]]
	// The new tile goes to a part of 3n+1 tiles, which must then split into
	// sets and the pair while the others split into sets; or to one of two
	// parts of 3n+2 tiles, which must then split into sets while the other
	// holds the pair. Any other spread of tile counts has no standard wait.
	var w tile.KindSet
	one, two1, two2 := -1, -1, -1
	shape := true
	for i, n := range hp.tiles {
		switch n % 3 {
		case 0:
			shape = shape && info[i]&infoSets != 0
		case 1:
			shape = shape && one < 0
			one = i
		default:
			if two1 < 0 {
				two1 = i
			} else {
				shape = shape && two2 < 0
				two2 = i
			}
		}
	}
	switch {
	case !shape:
	case one >= 0 && two1 < 0:
		w = partWaits(info[one], one)
	case one < 0 && two2 >= 0:
		if info[two2]&infoPair != 0 {
			w |= partWaits(info[two1], two1)
		}
		if info[two1]&infoPair != 0 {
			w |= partWaits(info[two2], two2)
		}
	}
	if total == 13 {
		l := countLanes(c)
		w |= sevenPairsWait(&l) | thirteenOrphansWaits(&l)
	}
	return w
}

// partWaits places a part's completing kinds among the 34.
func partWaits(info uint16, part int) tile.KindSet {
	return tile.KindSet(info&infoWaits) << (9 * part)
}

func (hp *handParts) total() int {
	return hp.tiles[0] + hp.tiles[1] + hp.tiles[2] + hp.tiles[3]
}

// analysable ranks the parts of c and reports whether the tables can answer
// for it: a real hand of 3n+1 or 3n+2 tiles.
func (t *suitTables) analysable(c *tile.Counts, hp *handParts) (total int, ok bool) {
	if !t.parts(c, hp) {
		return 0, false
	}
	total = hp.total()
	return total, total <= suitMaxTiles && total%3 != 0
}

// standard is the standard shanten number of a hand of total tiles whose
// parts are hp: the fewest tiles to gain to hold 4-melds sets and a pair,
// less one. The best target splits into a best target for each part, so
// the parts' vectors combine by min-plus convolution (minPlus) over how
// many sets each part holds and which holds the pair; the tables hold the
// convolutions.
func (t *suitTables) standard(hp *handParts, total int) int {
	sets := 4 - (suitMaxTiles-total)/3
	u := t.unite(t.unite(t.numShanten[hp.idx[0]], t.numShanten[hp.idx[1]]),
		t.unite(t.numShanten[hp.idx[2]], t.honShanten[hp.idx[3]]))
	return int(t.vecs[u][5+sets]) - 1
}

// Seven pairs and thirteen orphans look at every kind. The counts are read
// as five words of eight one-byte lanes (kinds 8i to 8i+7 in word i), and a
// test on all lanes at once leaves one bit in each lane that passes.
type kindLanes [5]uint64

func countLanes(c *tile.Counts) kindLanes {
	return kindLanes{
		binary.LittleEndian.Uint64(c[0:8]),
		binary.LittleEndian.Uint64(c[8:16]),
		binary.LittleEndian.Uint64(c[16:24]),
		binary.LittleEndian.Uint64(c[24:32]),
		uint64(c[32]) | uint64(c[33])<<8,
	}
}

const (
	laneLow  = 0x7f7f7f7f7f7f7f7f
	laneHigh = 0x8080808080808080
	laneOnes = 0x0101010101010101
	// A lane with a bit of laneAboveOne holds two or more.
	laneAboveOne = 0xfefefefefefefefe
)

// laneNonzero sets the high bit of the lanes of x that are not 0, whatever
// they hold.
func laneNonzero(x uint64) uint64 { return ((x & laneLow) + laneLow | x) & laneHigh }

// yaochuLanes marks the terminal and honour kinds' lanes.
var yaochuLanes = func() kindLanes {
	var l kindLanes
	for k := range tile.Yaochu.All() {
		l[k/8] |= 0x80 << (8 * (k % 8))
	}
	return l
}()

func sevenPairsShanten(w *kindLanes) int {
	kinds, pairs := 0, 0
	for _, x := range w {
		kinds += bits.OnesCount64(laneNonzero(x))
		pairs += bits.OnesCount64(laneNonzero(x & laneAboveOne))
	}
	s := 6 - pairs
	if kinds < 7 {
		s += 7 - kinds
	}
	return s
}

func thirteenOrphansShanten(w *kindLanes) int {
	kinds, pair := 0, 0
	for i, x := range w {
		kinds += bits.OnesCount64(laneNonzero(x) & yaochuLanes[i])
		if laneNonzero(x&laneAboveOne)&yaochuLanes[i] != 0 {
			pair = 1
		}
	}
	return 13 - kinds - pair
}

// sevenPairsComplete reports whether 14 counted tiles, none more than four
// of a kind, are seven pairs.
func sevenPairsComplete(w *kindLanes) bool {
	pairs := 0
	for _, x := range w {
		pairs += bits.OnesCount64(lanesTwo(x))
	}
	return pairs == 7
}

// For counts of 0..4 a lane's low bits tell its count without arithmetic:
// lanesOne, lanesTwo and lanesThreeUp leave bit 0 of the lanes holding 1, 2,
// and 3 or 4. (Shifting brings a higher lane's bits into a lane's top bits
// only.)
func lanesOne(x uint64) uint64     { return x &^ (x >> 1) &^ (x >> 2) & laneOnes }
func lanesTwo(x uint64) uint64     { return x >> 1 &^ x &^ (x >> 2) & laneOnes }
func lanesThreeUp(x uint64) uint64 { return (x>>2 | x&(x>>1)) & laneOnes }

// thirteenOrphansComplete reports whether 14 counted tiles are thirteen
// orphans: every terminal and honour kind, nothing else.
func thirteenOrphansComplete(w *kindLanes) bool {
	kinds := 0
	for i, x := range w {
		nz := laneNonzero(x)
		if nz&^yaochuLanes[i] != 0 {
			return false
		}
		kinds += bits.OnesCount64(nz)
	}
	return kinds == 13
}

// sevenPairsWait is the wait of 13 counted tiles, none more than four of
// a kind, that are six pairs and a single tile of another kind: that kind.
func sevenPairsWait(w *kindLanes) tile.KindSet {
	pairs, singles := 0, 0
	var wait tile.KindSet
	var more uint64
	for i, x := range w {
		one := lanesOne(x)
		pairs += bits.OnesCount64(lanesTwo(x))
		more |= lanesThreeUp(x)
		if one != 0 {
			singles += bits.OnesCount64(one)
			wait = 1 << (8*i + bits.TrailingZeros64(one)/8)
		}
	}
	if pairs != 6 || singles != 1 || more != 0 {
		return 0
	}
	return wait
}

// thirteenOrphansWaits is the wait of 13 counted tiles (none more than four
// of a kind) one short of thirteen orphans: all thirteen kinds if each is
// held once, otherwise the missing kind.
func thirteenOrphansWaits(w *kindLanes) tile.KindSet {
	var held tile.KindSet
	kinds := 0
	for i, x := range w {
		nz := laneNonzero(x)
		if nz&^yaochuLanes[i] != 0 || lanesThreeUp(x) != 0 {
			return 0 // another kind, or three or more of one
		}
		kinds += bits.OnesCount64(nz)
		for v := nz; v != 0; v &= v - 1 {
			held |= 1 << (8*i + bits.TrailingZeros64(v)/8)
		}
	}
	switch kinds {
	case 13:
		return tile.Yaochu
	case 12:
		return tile.Yaochu &^ held
	}
	return 0
}
