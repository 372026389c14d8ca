package judge

import (
	"strings"

	"github.com/mahjong-authority/authority/internal/tile"
)

// GroupType is the shape of a concealed group of a Reading.
type GroupType uint8

// The group types. The zero value is invalid.
const (
	Run     GroupType = iota + 1 // three consecutive numbers of a suit
	Triplet                      // three of a kind
)

func (t GroupType) String() string {
	switch t {
	case Run:
		return "run"
	case Triplet:
		return "triplet"
	}
	return "invalid"
}

// Group is one concealed set of a Reading. Kind is its lowest tile.
type Group struct {
	Type GroupType
	Kind tile.Kind
}

// String is the group in MPSZ notation ("123m", "555z").
func (g Group) String() string {
	var c tile.Counts
	if g.Kind >= tile.NumKinds || (g.Type == Run && !canStartRun(g.Kind)) {
		return "?"
	}
	if g.Type == Run {
		c[g.Kind], c[g.Kind+1], c[g.Kind+2] = 1, 1, 1
	} else {
		c[g.Kind] = 3
	}
	return c.String()
}

// Reading is one way to read concealed tiles as sets and a pair. It covers
// the concealed part only: declared melds are sets already. Groups[:N] are
// the sets, lowest kind first, a triplet before runs of the same kind.
type Reading struct {
	Groups [4]Group
	N      int
	Pair   tile.Kind
}

// String writes the reading as its groups, pair first ("11z 123m 555p").
func (r Reading) String() string {
	var b strings.Builder
	var c tile.Counts
	c[r.Pair] = 2
	b.WriteString(c.String())
	for _, g := range r.Groups[:r.N] {
		b.WriteByte(' ')
		b.WriteString(g.String())
	}
	return b.String()
}

// maxReadings is the most readings 14 concealed tiles can have; readings_test
// proves it by exhausting every single-suit shape. Score keeps its readings
// in an array of this size, so that it never allocates.
const maxReadings = 4

// Readings appends to dst every distinct standard reading of the concealed
// tiles c (3n+2 of them, at most 14): every way to split them into n sets
// and a pair. Runs are read across suits' numbers, triplets of a kind, and
// honours only as triplets or the pair. Ambiguous shapes give several
// readings: 111222333m is three triplets or three identical runs, and
// 1112345678999m+1m has two. Seven pairs and thirteen orphans are not
// standard readings and are not listed. A hand with no
// reading leaves dst unchanged. The cost is a short backtracking search; it
// allocates only if dst lacks room for the readings (at most maxReadings).
func Readings(c *tile.Counts, dst []Reading) []Reading {
	var g readingGen
	g.run(c)
	return append(dst, g.out[:g.n]...)
}

// readingGen is the search state of Readings. The readings go to a fixed
// array rather than a slice, so that the recursive search does not make
// its output escape to the heap.
type readingGen struct {
	c   tile.Counts
	cur Reading
	out [maxReadings]Reading
	n   int
}

// run finds the readings of c into g.out[:g.n].
func (g *readingGen) run(c *tile.Counts) {
	g.n = 0
	n := c.Total()
	if n%3 != 2 || n > 14 {
		return
	}
	g.c = *c
	// The pair lies in the one suit whose count leaves 2 over; any other
	// remainder means no reading at all. Honours must come in twos or threes.
	pairSuit := -1
	for s := 0; s < 3; s++ {
		t := 0
		for _, v := range g.c[s*9 : s*9+9] {
			t += int(v)
		}
		switch t % 3 {
		case 1:
			return
		case 2:
			if pairSuit >= 0 {
				return
			}
			pairSuit = s
		}
	}
	honorPair := -1
	for k := tile.East; k < tile.NumKinds; k++ {
		switch g.c[k] {
		case 1, 4:
			return
		case 2:
			if honorPair >= 0 || pairSuit >= 0 {
				return
			}
			honorPair = int(k)
		}
	}
	if honorPair >= 0 {
		g.pair(tile.Kind(honorPair))
		return
	}
	if pairSuit < 0 {
		return
	}
	for k := pairSuit * 9; k < pairSuit*9+9; k++ {
		if g.c[k] >= 2 {
			g.pair(tile.Kind(k))
		}
	}
}

func (g *readingGen) pair(k tile.Kind) {
	g.c[k] -= 2
	g.cur.Pair = k
	g.cur.N = 0
	g.sets(0)
	g.c[k] += 2
}

// sets reads the tiles from kind k on as sets. At the lowest kind left, a
// set holding it either is its triplet or starts a run there, so deciding
// "triplet or not" and then taking every remaining tile of the kind as run
// starts visits each multiset of sets exactly once.
func (g *readingGen) sets(k int) {
	for k < tile.NumKinds && g.c[k] == 0 {
		k++
	}
	if k == tile.NumKinds {
		if g.n < len(g.out) { // always: maxReadings is proven
			g.out[g.n] = g.cur
			g.n++
		}
		return
	}
	n := g.c[k]
	if n >= 3 {
		g.c[k] -= 3
		g.push(Triplet, k)
		if g.takeRuns(k, n-3) {
			g.sets(k + 1)
			g.putRuns(k, n-3)
		}
		g.cur.N--
		g.c[k] += 3
	}
	if g.takeRuns(k, n) {
		g.sets(k + 1)
		g.putRuns(k, n)
	}
}

func (g *readingGen) push(t GroupType, k int) {
	g.cur.Groups[g.cur.N] = Group{Type: t, Kind: tile.Kind(k)}
	g.cur.N++
}

// takeRuns takes r runs starting at k, if the tiles are there and there is
// room for them.
func (g *readingGen) takeRuns(k int, r uint8) bool {
	if r == 0 {
		return true
	}
	if !canStartRun(tile.Kind(k)) || g.c[k] < r || g.c[k+1] < r || g.c[k+2] < r || g.cur.N+int(r) > len(g.cur.Groups) {
		return false
	}
	g.c[k] -= r
	g.c[k+1] -= r
	g.c[k+2] -= r
	for range r {
		g.push(Run, k)
	}
	return true
}

func (g *readingGen) putRuns(k int, r uint8) {
	if r == 0 {
		return
	}
	g.c[k] += r
	g.c[k+1] += r
	g.c[k+2] += r
	g.cur.N -= int(r)
}
