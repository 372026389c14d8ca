package judge

import "github.com/mahjong-authority/authority/internal/tile"

// The slow versions try every split of the hand recursively. They are short
// enough to check by eye, which makes them the oracle the fast code is
// fuzzed against.

func slowComplete(c *tile.Counts) bool {
	n := c.Total()
	if n%3 != 2 {
		return false
	}
	if n == 14 && (isSevenPairs(c) || isThirteenOrphans(c)) {
		return true
	}
	h := *c
	return slowSets(&h, true)
}

// slowSets reports whether h splits into sets, plus exactly one pair when
// needPair is set.
func slowSets(h *tile.Counts, needPair bool) bool {
	k := 0
	for k < tile.NumKinds && h[k] == 0 {
		k++
	}
	if k == tile.NumKinds {
		return !needPair
	}
	if needPair && h[k] >= 2 {
		h[k] -= 2
		ok := slowSets(h, false)
		h[k] += 2
		if ok {
			return true
		}
	}
	if h[k] >= 3 {
		h[k] -= 3
		ok := slowSets(h, needPair)
		h[k] += 3
		if ok {
			return true
		}
	}
	if canStartRun(tile.Kind(k)) && h[k+1] > 0 && h[k+2] > 0 {
		h[k]--
		h[k+1]--
		h[k+2]--
		ok := slowSets(h, needPair)
		h[k]++
		h[k+1]++
		h[k+2]++
		return ok
	}
	return false
}

func canStartRun(k tile.Kind) bool { return k < 27 && k%9 <= 6 }

func isSevenPairs(c *tile.Counts) bool {
	pairs := 0
	for _, v := range c {
		switch v {
		case 0:
		case 2:
			pairs++
		default:
			return false
		}
	}
	return pairs == 7
}

func isThirteenOrphans(c *tile.Counts) bool {
	pair := false
	for k, v := range c {
		y := tile.Kind(k).IsYaochu()
		switch {
		case v == 0 && !y:
		case v == 1 && y:
		case v == 2 && y && !pair:
			pair = true
		default:
			return false
		}
	}
	return pair
}

func slowShanten(c *tile.Counts) int {
	s := slowShantenStandard(c)
	if c.Total() >= 13 {
		s = min(s, shantenSevenPairs(c), shantenThirteenOrphans(c))
	}
	return s
}

// slowShantenStandard is 8 - 2*sets - partial sets - pair, maximised over
// every way of taking sets, then partial sets (pairs, two-sided and gapped
// runs) and at most one head out of the hand, with melds counted as sets and
// no more than four sets and partial sets in all.
func slowShantenStandard(c *tile.Counts) int {
	melds := (14 - c.Total()) / 3
	h := *c
	best := 8
	// The blocks a tile of kind k can start, in a fixed order. Taking the
	// blocks at one kind in that order (never an earlier type after a later
	// one) visits every multiset of blocks once instead of once per order,
	// which keeps the search fast enough to fuzz against.
	const (
		triplet = iota
		run
		head
		pairPartial
		sidePartial // k, k+1
		gapPartial  // k, k+2
		isolated
	)
	var rec func(k, from, sets, partials int, pair bool)
	rec = func(k, from, sets, partials int, pair bool) {
		for k < tile.NumKinds && h[k] == 0 {
			k++
			from = triplet
		}
		if k == tile.NumKinds {
			s, p := sets+melds, partials
			if s+p > 4 {
				p = 4 - s
			}
			v := 8 - 2*s - p
			if pair {
				v--
			}
			best = min(best, v)
			return
		}
		kk := tile.Kind(k)
		take := func(t int, d0, d1, d2 uint8, sets, partials int, pair bool) {
			if h[k] < d0 || (d1 > 0 && h[k+1] < d1) || (d2 > 0 && h[k+2] < d2) {
				return
			}
			h[k] -= d0
			if d1 > 0 {
				h[k+1] -= d1
			}
			if d2 > 0 {
				h[k+2] -= d2
			}
			rec(k, t, sets, partials, pair)
			h[k] += d0
			if d1 > 0 {
				h[k+1] += d1
			}
			if d2 > 0 {
				h[k+2] += d2
			}
		}
		for t := from; t <= isolated; t++ {
			switch t {
			case triplet:
				take(t, 3, 0, 0, sets+1, partials, pair)
			case run:
				if canStartRun(kk) {
					take(t, 1, 1, 1, sets+1, partials, pair)
				}
			case head:
				if !pair {
					take(t, 2, 0, 0, sets, partials, true)
				}
			case pairPartial:
				take(t, 2, 0, 0, sets, partials+1, pair)
			case sidePartial:
				if k < 27 && k%9 <= 7 {
					take(t, 1, 1, 0, sets, partials+1, pair)
				}
			case gapPartial:
				if canStartRun(kk) {
					take(t, 1, 0, 1, sets, partials+1, pair)
				}
			case isolated:
				take(t, 1, 0, 0, sets, partials, pair)
			}
		}
	}
	rec(0, triplet, 0, 0, false)
	return best
}

// shantenSevenPairs counts distinct pairs; a hand with fewer than seven
// distinct kinds needs more draws than its pairs alone say.
func shantenSevenPairs(c *tile.Counts) int {
	pairs, kinds := 0, 0
	for _, v := range c {
		if v > 0 {
			kinds++
		}
		if v >= 2 {
			pairs++
		}
	}
	s := 6 - pairs
	if kinds < 7 {
		s += 7 - kinds
	}
	return s
}

func shantenThirteenOrphans(c *tile.Counts) int {
	kinds, pair := 0, 0
	for k := range tile.Yaochu.All() {
		if c[k] > 0 {
			kinds++
		}
		if c[k] >= 2 {
			pair = 1
		}
	}
	return 13 - kinds - pair
}

func slowWaits(c *tile.Counts) tile.KindSet {
	var w tile.KindSet
	if c.Total()%3 != 1 {
		return 0
	}
	h := *c
	for k := range tile.NumKinds {
		h[k]++
		if slowComplete(&h) {
			w = w.With(tile.Kind(k))
		}
		h[k]--
	}
	return w
}
