package judge

import (
	"encoding/binary"
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The fast analysis splits a hand into its three numbered suits and its
// honours, which never share a set, and looks each part up in a table built
// once (suittable_gen.go). A part is a count vector of 9 kinds (7 for the
// honours, which form no runs), each 0..4, at most 14 tiles in all; the
// table is indexed by the vector's rank among all such vectors, which keeps
// it dense (405,350 numbered parts, 43,130 honour parts) where a plain
// base-5 index would leave four fifths of it empty.

// suitMaxTiles bounds the tiles of one part: a hand has at most 14.
const suitMaxTiles = 14

// A suitRanker ranks the count vectors of one kind of part. The order is
// lexicographic from the last kind down (9m weighs most), so that taking
// tiles from the lowest kinds of a part, as the generator does, changes
// only the terms of the rank for those kinds.
type suitRanker struct {
	n int // kinds in the part: 9, or 7 for the honours
	// off[i][t][v] is the number of vectors that agree with the one being
	// ranked after position i and hold fewer than v tiles at i, when t
	// tiles are left for positions i and before.
	off  [9][suitMaxTiles + 1][5]int32
	size int // number of vectors
	fast suitFastRank
}

func newSuitRanker(n int) *suitRanker {
	// count[i][t]: vectors over positions 0..i-1 holding at most t tiles.
	var count [10][suitMaxTiles + 1]int
	for t := range suitMaxTiles + 1 {
		count[0][t] = 1
	}
	for i := 1; i <= n; i++ {
		for t := range suitMaxTiles + 1 {
			for v := 0; v <= 4 && v <= t; v++ {
				count[i][t] += count[i-1][t-v]
			}
		}
	}
	r := &suitRanker{n: n, size: count[n][suitMaxTiles]}
	for i := range n {
		for t := range suitMaxTiles + 1 {
			acc := 0
			for v := 0; v <= 4 && v <= t; v++ {
				r.off[i][t][v] = int32(acc)
				acc += count[i][t-v]
			}
		}
	}
	r.buildFast()
	return r
}

// rank returns the index of the vector p (r.n counts) and its number of
// tiles; ok is false if a count is above 4 or the part holds more than
// suitMaxTiles tiles, which no real hand does.
func (r *suitRanker) rank(p []uint8) (idx, tiles int, ok bool) {
	left := suitMaxTiles
	for i := r.n - 1; i >= 0; i-- {
		v := p[i]
		if v > 4 || int(v) > left {
			return 0, 0, false
		}
		idx += int(r.off[i][left][v])
		left -= int(v)
	}
	return idx, suitMaxTiles - left, true
}

// The analysis ranks a part from the word of its counts (one byte a kind,
// the lowest kind in the low byte, for the first eight kinds) with a few
// word operations and two look-ups: the rank is the sum of the terms of
// kinds 4 and up, which depend only on their counts, and of kinds 0..3,
// which depend on their counts and on how many tiles the upper kinds
// leave. Each group of counts is read as a base-5 number.
type suitFastRank struct {
	upper []int32                      // by the base-5 key of kinds 4..n-1
	lower [suitMaxTiles + 1][625]int32 // by tiles left and base-5 key of kinds 0..3
}

func (r *suitRanker) buildFast() {
	var p [9]uint8
	r.fast.upper = make([]int32, suitPow5(r.n-4))
	for key := range r.fast.upper {
		left := suitMaxTiles
		sum := 0
		for i, k := r.n-1, key; i >= 4; i-- {
			p[i] = uint8(k / suitPow5(i-4) % 5)
			if int(p[i]) > left {
				break // no such part; never looked up
			}
			sum += int(r.off[i][left][p[i]])
			left -= int(p[i])
		}
		r.fast.upper[key] = int32(sum)
	}
	for left := range suitMaxTiles + 1 {
		for key := range 625 {
			sum, l := 0, left
			for i := 3; i >= 0; i-- {
				v := key / suitPow5(i) % 5
				if v > l {
					break
				}
				sum += int(r.off[i][l][v])
				l -= v
			}
			r.fast.lower[left][key] = int32(sum)
		}
	}
}

func suitPow5(n int) int {
	p := 1
	for range n {
		p *= 5
	}
	return p
}

// rankWord is rank for the part whose first eight counts are the bytes of
// x and whose ninth is c8 (0 for the honours).
func (r *suitRanker) rankWord(x, c8 uint64) (idx, tiles int, ok bool) {
	// A lane of 5 or more gets its high bit set.
	if ((x&laneLow)+0x7b7b7b7b7b7b7b7b|x)&laneHigh != 0 || c8 > 4 {
		return 0, 0, false
	}
	sums := x * laneOnes // byte i: counts of kinds 0..i
	lower := int(sums >> 24 & 0xff)
	tiles = int(sums>>56) + int(c8)
	if tiles > suitMaxTiles {
		return 0, 0, false
	}
	// Pairs of lanes, then quads, as base-5 numbers.
	y := x&0x00ff00ff00ff00ff + x>>8&0x00ff00ff00ff00ff*5
	z := y&0x0000ffff0000ffff + y>>16&0x0000ffff0000ffff*25
	idx = int(r.fast.upper[z>>32+c8*625]) + int(r.fast.lower[suitMaxTiles-tiles+lower][z&0xffff])
	return idx, tiles, true
}

// suitInfo bits: the completing kinds (bit i for the part's i-th kind) and
// whether the part splits into sets alone or into sets and one pair.
//
// The completing kinds of a part with 3n+2 tiles are those that leave sets
// alone; of a part with 3n+1 tiles, those that leave sets and a pair; a part
// with 3n tiles has none. A kind the part already holds four of may be
// among them.
const (
	infoWaits uint16 = 1<<9 - 1
	infoSets  uint16 = 1 << 9  // n sets
	infoPair  uint16 = 1 << 10 // n sets and a pair
)

// shantenVec[p*5+j] is the least number of tiles a part must gain (drawing
// them, and discarding others if it has too many) to hold j sets, and a pair
// if p is 1. A set may be any run or triplet, even one that would take a
// fifth copy of a kind, as the standard shanten number counts it.
type shantenVec [10]uint8

// Few vectors occur (164, counting those of unions of parts), so a part's
// table holds the vector's class, and the union of two parts' classes is
// looked up, not computed.
type shantenClass uint8

type suitTables struct {
	num, hon *suitRanker
	// By rank: numbered and honour parts.
	numInfo, honInfo       []uint16
	numShanten, honShanten []shantenClass
	vecs                   []shantenVec   // by class
	union                  []shantenClass // union[a*len(vecs)+b]: class of a part of class a with one of class b
}

// unite returns the class of the union of two disjoint parts.
func (t *suitTables) unite(a, b shantenClass) shantenClass {
	return t.union[int(a)*len(t.vecs)+int(b)]
}

var (
	partTablesOnce sync.Once
	partTables     *suitTables
)

// loadTables returns the tables, building them on first use so that binaries
// importing the package without calling the analysis never pay for them.
func loadTables() *suitTables {
	partTablesOnce.Do(func() { partTables = buildSuitTables() })
	return partTables
}

// handParts holds the ranks and tile counts of a hand's four parts: man,
// pin, sou, honours.
type handParts struct {
	idx   [4]int
	tiles [4]int
}

// parts ranks the four parts of c into hp. It reports false if c is no real
// hand: a count above 4, or more than 14 tiles in a part.
func (t *suitTables) parts(c *tile.Counts, hp *handParts) bool {
	var ok0, ok1, ok2, ok3 bool
	hp.idx[0], hp.tiles[0], ok0 = t.num.rankWord(binary.LittleEndian.Uint64(c[0:8]), uint64(c[8]))
	hp.idx[1], hp.tiles[1], ok1 = t.num.rankWord(binary.LittleEndian.Uint64(c[9:17]), uint64(c[17]))
	hp.idx[2], hp.tiles[2], ok2 = t.num.rankWord(binary.LittleEndian.Uint64(c[18:26]), uint64(c[26]))
	hp.idx[3], hp.tiles[3], ok3 = t.hon.rankWord(binary.LittleEndian.Uint64(c[26:34])>>8, 0)
	return ok0 && ok1 && ok2 && ok3
}
