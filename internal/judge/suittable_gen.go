package judge

// The generator of the part tables of suittable.go. It runs once per
// process, on the first analysis call; suittable_test.go checks its output
// against the slow recursive search on every part.

func buildSuitTables() *suitTables {
	t := &suitTables{num: newSuitRanker(9), hon: newSuitRanker(7)}
	t.numInfo = make([]uint16, t.num.size)
	t.honInfo = make([]uint16, t.hon.size)
	markCompleteParts(t.num, t.numInfo, true)
	markCompleteParts(t.hon, t.honInfo, false)
	var cl shantenClasses
	t.numShanten = buildShantenParts(t.num, true, &cl)
	t.honShanten = buildShantenParts(t.hon, false, &cl)
	t.vecs, t.union = cl.unions()
	return t
}

// shantenClasses numbers shanten vectors as they are found. It is looked
// up once for each of the 448,480 parts, so it is a small open-addressing
// table rather than a map (which made building the tables a fifth slower).
type shantenClasses struct {
	vecs  []shantenVec
	slots [4 * (maxShantenClass + 1)]struct {
		key   uint64 // the vector's key + 1; 0 for an empty slot
		class shantenClass
	}
}

func (cl *shantenClasses) id(v *shantenVec) shantenClass {
	key := v.key() + 1
	i := key * 0x9e3779b97f4a7c15 >> 54 // 10 bits: len(cl.slots)
	for {
		s := &cl.slots[i%uint64(len(cl.slots))]
		switch s.key {
		case key:
			return s.class
		case 0:
			if len(cl.vecs) > maxShantenClass {
				panic("judge: too many shanten classes")
			}
			s.key, s.class = key, shantenClass(len(cl.vecs))
			cl.vecs = append(cl.vecs, *v)
			return s.class
		}
		i++
	}
}

const maxShantenClass = 255

// unions adds the vectors of every union of parts, a union of two of them
// being their min-plus convolution, until no new one appears, and returns
// all the vectors with the table of unions.
func (cl *shantenClasses) unions() ([]shantenVec, []shantenClass) {
	for a := 0; a < len(cl.vecs); a++ {
		for b := 0; b <= a; b++ {
			v := minPlus(&cl.vecs[a], &cl.vecs[b], 4)
			cl.id(&v)
		}
	}
	n := len(cl.vecs)
	union := make([]shantenClass, n*n)
	for a := range n {
		for b := range n {
			v := minPlus(&cl.vecs[a], &cl.vecs[b], 4)
			union[a*n+b] = cl.id(&v)
		}
	}
	return cl.vecs, union
}

// markCompleteParts builds every part that is n sets, or n sets and a pair
// (n <= 4), and marks it in info, then marks each part that is one tile short
// of it with that tile as a completing kind. The complete part itself may
// hold five of a kind: taking one away leaves a real part waiting on a fifth
// tile.
func markCompleteParts(r *suitRanker, info []uint16, runs bool) {
	var p [9]uint8
	mark := func(withPair bool) {
		if over := partOverFour(&p, r.n); over <= 1 {
			if over == 0 {
				idx, _, _ := r.rank(p[:])
				if withPair {
					info[idx] |= infoPair
				} else {
					info[idx] |= infoSets
				}
			}
			for k := range r.n {
				if p[k] == 0 {
					continue
				}
				p[k]--
				if partOverFour(&p, r.n) == 0 {
					idx, _, _ := r.rank(p[:])
					info[idx] |= 1 << k
				}
				p[k]++
			}
		}
	}
	// Sets are taken in a fixed order (triplet of k as set 2k, run from k as
	// 2k+1), so each multiset of sets is built once.
	var sets func(from, left int)
	sets = func(from, left int) {
		mark(false)
		for k := range r.n {
			p[k] += 2
			mark(true)
			p[k] -= 2
		}
		if left == 0 {
			return
		}
		for s := from; s < 2*r.n; s++ {
			k := s / 2
			if s%2 == 0 {
				p[k] += 3
				sets(s, left-1)
				p[k] -= 3
			} else if runs && k+2 < r.n {
				p[k]++
				p[k+1]++
				p[k+2]++
				sets(s, left-1)
				p[k]--
				p[k+1]--
				p[k+2]--
			}
		}
	}
	sets(0, 4)
}

// partOverFour counts the kinds of p held more than four times.
func partOverFour(p *[9]uint8, n int) int {
	over := 0
	for _, v := range p[:n] {
		if v > 4 {
			over++
		}
	}
	return over
}

// buildShantenParts computes the shanten vector of every part, in rank
// order, and returns each part's class (numbered in cl, which both kinds of
// part share).
//
// The vector of a part is found from those of smaller parts: the lowest
// tile k of the part is either left out or is one of the tiles of one set
// or of the pair of the target. If it belongs to a set, the set's other
// tiles the part holds are all above k, so they are among k+1 and k+2 (a
// run from k), or further copies of k (a triplet). Removing that piece
// gives a part of lower rank, already computed.
func buildShantenParts(r *suitRanker, runs bool, cl *shantenClasses) []shantenClass {
	b := shantenBuilder{r: r, runs: runs, class: make([]shantenClass, r.size), cl: cl}
	next := 0
	var walk func(i, left int)
	walk = func(i, left int) {
		if i < 0 {
			v := b.vector(next)
			b.class[next] = cl.id(&v)
			next++
			return
		}
		b.left[i] = left
		for v := 0; v <= 4 && v <= left; v++ {
			b.p[i] = uint8(v)
			walk(i-1, left-v)
		}
		b.p[i] = 0
	}
	walk(r.n-1, suitMaxTiles)
	return b.class
}

type shantenBuilder struct {
	r     *suitRanker
	runs  bool
	class []shantenClass // by rank, for the parts done so far
	cl    *shantenClasses
	p     [9]uint8 // the part at hand
	left  [9]int   // tiles left for positions i and below when ranking p
}

// vector is one step of buildShantenParts: the vector of b.p, whose rank is
// idx, from the vectors of smaller parts.
func (b *shantenBuilder) vector(idx int) shantenVec {
	var v shantenVec
	n, p := b.r.n, &b.p
	k := 0
	for k < n && p[k] == 0 {
		k++
	}
	if k == n {
		for j := range 5 {
			v[j] = uint8(3 * j)
			v[5+j] = uint8(3*j + 2)
		}
		return v
	}
	// Left out: the target gains nothing from k.
	v = *b.rest(idx, k, 1, 0, 0)
	b.set(&v, idx, k, 1, 0, 0) // a lone tile of some set
	if p[k] >= 2 {
		b.set(&v, idx, k, 2, 0, 0) // two of a triplet
	}
	if p[k] >= 3 {
		b.set(&v, idx, k, 3, 0, 0) // a triplet
	}
	if b.runs && k+1 < n && p[k+1] > 0 {
		b.set(&v, idx, k, 1, 1, 0) // two of a run: k, k+1
	}
	if b.runs && k+2 < n && p[k+2] > 0 {
		b.set(&v, idx, k, 1, 0, 1) // two of a run: k, k+2
		if p[k+1] > 0 {
			b.set(&v, idx, k, 1, 1, 1) // a run
		}
	}
	for d := uint8(1); d <= 2 && d <= p[k]; d++ {
		// Half the pair, or the pair.
		rest := b.rest(idx, k, d, 0, 0)
		for j := range 5 {
			v[5+j] = min(v[5+j], rest[j]+2-d)
		}
	}
	return v
}

// set keeps in v the better of v and a target one of whose sets holds the
// piece of d0, d1, d2 tiles of kinds k, k+1, k+2.
func (b *shantenBuilder) set(v *shantenVec, idx, k int, d0, d1, d2 uint8) {
	rest := b.rest(idx, k, d0, d1, d2)
	lack := 3 - d0 - d1 - d2
	for j := 1; j < 5; j++ {
		v[j] = min(v[j], rest[j-1]+lack)
		v[5+j] = min(v[5+j], rest[5+j-1]+lack)
	}
}

// rest returns the vector of the part b.p (of rank idx) without d0, d1, d2
// tiles of kinds k, k+1, k+2, where k is its lowest kind. Only the rank
// terms of those kinds change: the kinds below k are empty and weigh
// nothing, those above keep their counts and tiles left.
func (b *shantenBuilder) rest(idx, k int, d0, d1, d2 uint8) *shantenVec {
	off, p, left := &b.r.off, &b.p, &b.left
	if d2 > 0 {
		idx += int(off[k+2][left[k+2]][p[k+2]-d2] - off[k+2][left[k+2]][p[k+2]])
	}
	if d1|d2 > 0 {
		idx += int(off[k+1][left[k+1]+int(d2)][p[k+1]-d1] - off[k+1][left[k+1]][p[k+1]])
	}
	idx += int(off[k][left[k]+int(d1+d2)][p[k]-d0] - off[k][left[k]][p[k]])
	return &b.cl.vecs[b.class[idx]]
}

// key packs v into 40 bits (no entry exceeds 14) for the class map.
func (v *shantenVec) key() uint64 {
	var k uint64
	for _, e := range v {
		k = k<<4 | uint64(e)
	}
	return k
}

// minPlus combines the vectors of two disjoint parts into the vector of
// their union, up to sets sets.
func minPlus(a, b *shantenVec, sets int) shantenVec {
	var c shantenVec
	for j := 0; j <= sets; j++ {
		noPair, pair := uint8(255), uint8(255)
		for i := 0; i <= j; i++ {
			noPair = min(noPair, a[i]+b[j-i])
			pair = min(pair, a[i]+b[5+j-i], a[5+i]+b[j-i])
		}
		c[j], c[5+j] = noPair, pair
	}
	return c
}
