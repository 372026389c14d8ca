package judge

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"github.com/mahjong-authority/authority/internal/tile"
)

// eachPart calls f with every part of n kinds (each 0..4, at most 14
// tiles), in rank order.
func eachPart(n int, f func(p *[9]uint8, idx int)) {
	var p [9]uint8
	idx := 0
	var walk func(i, left int)
	walk = func(i, left int) {
		if i < 0 {
			f(&p, idx)
			idx++
			return
		}
		for v := 0; v <= 4 && v <= left; v++ {
			p[i] = uint8(v)
			walk(i-1, left-v)
		}
		p[i] = 0
	}
	walk(n-1, suitMaxTiles)
}

// partCounts places a part in a hand: as man tiles, or as honours.
func partCounts(p *[9]uint8, n int) tile.Counts {
	var c tile.Counts
	base := 0
	if n == 7 {
		base = int(tile.East)
	}
	copy(c[base:base+n], p[:n])
	return c
}

// TestSuitTablesSize logs what building the tables costs (the figures
// that count come from BenchmarkBuildTables) and keeps their memory in
// bounds.
func TestSuitTablesSize(t *testing.T) {
	start := time.Now()
	tb := buildSuitTables()
	t.Logf("tables built in %v: %d numbered parts, %d honour parts, %d shanten classes, %d bytes",
		time.Since(start), tb.num.size, tb.hon.size, len(tb.vecs), tb.bytes())
	if tb.num.size != 405350 || tb.hon.size != 43130 {
		t.Errorf("parts = %d numbered, %d honours, want 405350, 43130", tb.num.size, tb.hon.size)
	}
	if n := tb.bytes(); n > 2<<20 {
		t.Errorf("tables hold %d bytes, want at most 2 MiB", n)
	}
}

// bytes is the memory the tables hold.
func (t *suitTables) bytes() int {
	ranker := int(unsafe.Sizeof(suitRanker{}))
	n := 2*ranker + 4*(len(t.num.fast.upper)+len(t.hon.fast.upper))
	n += 2 * (len(t.numInfo) + len(t.honInfo))
	n += len(t.numShanten) + len(t.honShanten)
	n += len(t.vecs)*len(shantenVec{}) + len(t.union)
	return n
}

func TestSuitRanker(t *testing.T) {
	for _, n := range []int{9, 7} {
		r := newSuitRanker(n)
		parts := 0
		eachPart(n, func(p *[9]uint8, want int) {
			parts++
			idx, tiles, ok := r.rank(p[:])
			sum := 0
			for _, v := range p {
				sum += int(v)
			}
			if !ok || idx != want || tiles != sum {
				t.Fatalf("rank(%v) = %d, %d, %v, want %d, %d, true", p[:n], idx, tiles, ok, want, sum)
			}
			x, c8 := binary.LittleEndian.Uint64(p[:8]), uint64(p[8])
			if n == 7 {
				x &= 1<<56 - 1
			}
			if idx, tiles, ok := r.rankWord(x, c8); !ok || idx != want || tiles != sum {
				t.Fatalf("rankWord(%v) = %d, %d, %v, want %d, %d, true", p[:n], idx, tiles, ok, want, sum)
			}
		})
		if parts != r.size {
			t.Errorf("%d kinds: %d parts, want size %d", n, parts, r.size)
		}
	}
	r := newSuitRanker(9)
	bad := [][9]uint8{
		{5},
		{0, 0, 0, 0, 0, 0, 0, 0, 5},
		{4, 4, 4, 3},
		{0, 0, 0, 0, 0, 4, 4, 4, 3},
		{2, 2, 2, 2, 2, 2, 2, 1, 0},
		{255},
		{0, 0, 0, 0, 0, 0, 0, 0, 255},
	}
	for _, p := range bad {
		if _, _, ok := r.rank(p[:]); ok {
			t.Errorf("rank(%v) ok, want not", p)
		}
		if _, _, ok := r.rankWord(binary.LittleEndian.Uint64(p[:8]), uint64(p[8])); ok {
			t.Errorf("rankWord(%v) ok, want not", p)
		}
	}
}

// TestSuitInfo checks the split and wait bits of every part against the
// slow search.
func TestSuitInfo(t *testing.T) {
	tb := loadTables()
	for _, n := range []int{9, 7} {
		info := tb.numInfo
		if n == 7 {
			info = tb.honInfo
		}
		eachPart(n, func(p *[9]uint8, idx int) {
			c := partCounts(p, n)
			var want uint16
			switch c.Total() % 3 {
			case 0:
				if slowSets(&c, false) {
					want |= infoSets
				}
			case 2:
				if slowSets(&c, true) {
					want |= infoPair
				}
			}
			if c.Total() < suitMaxTiles && c.Total()%3 != 0 {
				base := 0
				if n == 7 {
					base = int(tile.East)
				}
				for k := range n {
					c[base+k]++
					if slowSets(&c, c.Total()%3 == 2) {
						want |= 1 << k
					}
					c[base+k]--
				}
			}
			if got := info[idx]; got != want {
				c := partCounts(p, n)
				t.Fatalf("info(%s) = %#x, want %#x", c.String(), got, want)
			}
		})
	}
}

// partShantenBrute is the shanten vector of a part by brute force: the
// fewest missing tiles over every target of j sets (and a pair).
func partShantenBrute(p *[9]uint8, targets [2][5][][9]uint8) shantenVec {
	var v shantenVec
	for pair := range 2 {
		for j := range 5 {
			best := 255
			for _, tg := range targets[pair][j] {
				lack := 0
				for k, want := range tg {
					lack += max(0, int(want)-int(p[k]))
				}
				best = min(best, lack)
			}
			v[pair*5+j] = uint8(best)
		}
	}
	return v
}

// partTargets lists every target of j sets and a pair or not in a part of
// n kinds; counts may reach 14 (four triplets of a kind are a target, if a
// useless one).
func partTargets(n int, runs bool) [2][5][][9]uint8 {
	var out [2][5][][9]uint8
	var p [9]uint8
	var rec func(from, j int)
	rec = func(from, j int) {
		out[0][j] = append(out[0][j], p)
		for k := range n {
			p[k] += 2
			out[1][j] = append(out[1][j], p)
			p[k] -= 2
		}
		if j == 4 {
			return
		}
		for s := from; s < 2*n; s++ {
			k := s / 2
			switch {
			case s%2 == 0:
				p[k] += 3
				rec(s, j+1)
				p[k] -= 3
			case runs && k+2 < n:
				p[k]++
				p[k+1]++
				p[k+2]++
				rec(s, j+1)
				p[k]--
				p[k+1]--
				p[k+2]--
			}
		}
	}
	rec(0, 0)
	return out
}

// TestSuitShanten checks the shanten vectors: every part of up to four
// tiles and a random sample of the others against brute force over all
// targets, and the entry that is the part's own shanten number, for every
// part of up to eight tiles and a random sample of the others, against the
// slow search.
func TestSuitShanten(t *testing.T) {
	tb := loadTables()
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{9, 7} {
		r, classes := tb.num, tb.numShanten
		if n == 7 {
			r, classes = tb.hon, tb.honShanten
		}
		targets := partTargets(n, n == 9)
		brute, slow := 0, 0
		eachPart(n, func(p *[9]uint8, idx int) {
			got := tb.vecs[classes[idx]]
			c := partCounts(p, n)
			total := c.Total()
			if total <= 4 || rng.IntN(r.size) < 200 {
				brute++
				if want := partShantenBrute(p, targets); got != want {
					t.Fatalf("shanten vector of %s = %v, want %v", c.String(), got, want)
				}
			}
			// The part alone as a hand, with the melds its size implies.
			if total%3 != 0 && (total <= 8 || rng.IntN(r.size) < 3000) {
				slow++
				sets := 4 - (suitMaxTiles-total)/3
				if got, want := int(got[5+sets])-1, slowShantenStandard(&c); got != want {
					t.Fatalf("standard shanten of %s from its vector = %d, want %d", c.String(), got, want)
				}
			}
		})
		t.Logf("%d kinds: %d parts checked by brute force, %d by the slow search", n, brute, slow)
	}
}

// TestSuitUnion checks the union table: min-plus convolution, and closed.
func TestSuitUnion(t *testing.T) {
	tb := loadTables()
	if len(tb.vecs) > maxShantenClass+1 {
		t.Fatalf("%d classes, more than fit a shantenClass", len(tb.vecs))
	}
	for a := range tb.vecs {
		for b := range tb.vecs {
			u := tb.unite(shantenClass(a), shantenClass(b))
			for sets := range 5 {
				for pair := range 2 {
					want := 255
					for i := 0; i <= sets; i++ {
						want = min(want, int(tb.vecs[a][i])+int(tb.vecs[b][pair*5+sets-i]))
						if pair == 1 {
							want = min(want, int(tb.vecs[a][5+i])+int(tb.vecs[b][sets-i]))
						}
					}
					if got := int(tb.vecs[u][pair*5+sets]); got != want {
						t.Fatalf("union of %v and %v = %v, want %d at %d sets, pair %d", tb.vecs[a], tb.vecs[b], tb.vecs[u], want, sets, pair)
					}
				}
			}
		}
	}
}
