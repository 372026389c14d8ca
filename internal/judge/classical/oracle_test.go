package classical

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// The slow versions below follow the definitions word for word with
// exhaustive searches and share nothing with the fast code but the types
// and the item values. They are the oracle the fast code is tested and
// fuzzed against.

// slowSpecialHands lists every complete special hand as 14 tiles: 39
// Wriggly Snakes (three suits, thirteen choices of the pair), 13 Unique
// Wonders and 21 Gates of Heaven (three suits, seven extra tiles).
func slowSpecialHands() (hands []tile.Counts, names []Special) {
	winds := []tile.Kind{tile.East, tile.South, tile.West, tile.North}
	for s := 0; s < 3; s++ {
		var base tile.Counts
		var thirteen []tile.Kind
		for n := 0; n < 9; n++ {
			thirteen = append(thirteen, tile.Kind(9*s+n))
		}
		thirteen = append(thirteen, winds...)
		for _, k := range thirteen {
			base[k] = 1
		}
		for _, k := range thirteen {
			c := base
			c[k]++
			hands = append(hands, c)
			names = append(names, WrigglySnake)
		}
	}
	orphans := tile.MustParse("19m19p19s1234567z")
	for _, extra := range orphans {
		c := tile.CountsOf(orphans)
		c[extra.Kind()]++
		hands = append(hands, c)
		names = append(names, UniqueWonder)
	}
	for s := 0; s < 3; s++ {
		for extra := 2; extra <= 8; extra++ {
			var c tile.Counts
			c[9*s], c[9*s+8] = 3, 3
			for n := 1; n <= 7; n++ {
				c[9*s+n] = 1
			}
			c[9*s+extra-1]++
			hands = append(hands, c)
			names = append(names, GatesOfHeaven)
		}
	}
	return hands, names
}

var slowSpecials, slowSpecialNames = slowSpecialHands()

// slowSpecialOf finds c among the special hands.
func slowSpecialOf(c *tile.Counts) Special {
	for i, h := range slowSpecials {
		if h == *c {
			return slowSpecialNames[i]
		}
	}
	return NoSpecial
}

// slowFishing tries every tile on a 13-tile hand without melds.
func slowFishing(h *Hand) Fishing {
	var f Fishing
	if len(h.Melds) > 0 || h.Concealed.Total() != 13 {
		return f
	}
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		c := h.Concealed
		c[k]++
		if s := slowSpecialOf(&c); s != NoSpecial {
			f.Waits[s-1] |= tile.KindSet(1) << k
		}
	}
	return f
}

// slowSets reports whether c splits into sets and, if needPair, one pair.
func slowSets(c tile.Counts, needPair bool) bool {
	k := 0
	for k < tile.NumKinds && c[k] == 0 {
		k++
	}
	if k == tile.NumKinds {
		return !needPair
	}
	if needPair && c[k] >= 2 {
		c[k] -= 2
		if slowSets(c, false) {
			return true
		}
		c[k] += 2
	}
	if c[k] >= 3 {
		c[k] -= 3
		if slowSets(c, needPair) {
			return true
		}
		c[k] += 3
	}
	if k < 27 && k%9 <= 6 && c[k+1] > 0 && c[k+2] > 0 {
		c[k]--
		c[k+1]--
		c[k+2]--
		return slowSets(c, needPair)
	}
	return false
}

// slowComplete: four sets and a pair (with the melds), or a special hand.
func slowComplete(c tile.Counts, melds int) bool {
	if slowSets(c, true) {
		return true
	}
	return melds == 0 && slowSpecialOf(&c) != NoSpecial
}

// slowWaits tries every kind, a fifth copy included.
func slowWaits(h *Hand) tile.KindSet {
	var w tile.KindSet
	if h.Concealed.Total() != 13-3*len(h.Melds) {
		return 0
	}
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		c := h.Concealed
		c[k]++
		if slowComplete(c, len(h.Melds)) {
			w |= tile.KindSet(1) << k
		}
	}
	return w
}

// slowShantenUpTo returns the shanten number of h if it is at most
// maxShanten, else maxShanten+1: depth d is reachable when some exchange
// of d+1 tiles (for a 13-tile hand, d exchanges and a draw) completes the
// hand. Each level multiplies the work by about 450.
func slowShantenUpTo(h *Hand, maxShanten int) int {
	c := h.Concealed
	n := c.Total()
	size := 13 - 3*len(h.Melds)
	for d := -1; d <= maxShanten; d++ {
		if n == size+1 && slowReach(c, d+1, len(h.Melds)) {
			return d
		}
		if n == size && slowReachDraw(c, d+1, len(h.Melds)) {
			return d
		}
	}
	return maxShanten + 1
}

// slowReach reports whether the winning-size tiles c can be made complete
// by exchanging at most x tiles (drop one, take any kind; a fifth copy of
// a kind allowed, as the waits allow it).
func slowReach(c tile.Counts, x, melds int) bool {
	if slowComplete(c, melds) {
		return true
	}
	if x == 0 {
		return false
	}
	for out := tile.Kind(0); out < tile.NumKinds; out++ {
		if c[out] == 0 {
			continue
		}
		c[out]--
		for in := tile.Kind(0); in < tile.NumKinds; in++ {
			if in == out || c[in] >= 5 {
				continue
			}
			c[in]++
			ok := slowReach(c, x-1, melds)
			c[in]--
			if ok {
				return true
			}
		}
		c[out]++
	}
	return false
}

// slowReachDraw reports whether the 13-tile (less melds) hand c draws to
// a complete hand with one draw and at most x-1 exchanges.
func slowReachDraw(c tile.Counts, x, melds int) bool {
	if x == 0 {
		return false
	}
	for in := tile.Kind(0); in < tile.NumKinds; in++ {
		if c[in] >= 5 {
			continue
		}
		c[in]++
		ok := slowReach(c, x-1, melds)
		c[in]--
		if ok {
			return true
		}
	}
	return false
}

// slowGroup is a set of a reading: a triplet or a run, by its lowest kind.
type slowGroup struct {
	run  bool
	kind tile.Kind
}

// slowReadings returns every way to split c into sets and one pair, each
// as its pair and its groups (the same multiset may come more than once).
func slowReadings(c tile.Counts) (pairs []tile.Kind, groups [][]slowGroup) {
	var cur []slowGroup
	var rec func(pair int)
	rec = func(pair int) {
		k := 0
		for k < tile.NumKinds && c[k] == 0 {
			k++
		}
		if k == tile.NumKinds {
			if pair >= 0 {
				pairs = append(pairs, tile.Kind(pair))
				groups = append(groups, append([]slowGroup(nil), cur...))
			}
			return
		}
		if pair < 0 && c[k] >= 2 {
			c[k] -= 2
			rec(k)
			c[k] += 2
		}
		if c[k] >= 3 {
			c[k] -= 3
			cur = append(cur, slowGroup{kind: tile.Kind(k)})
			rec(pair)
			cur = cur[:len(cur)-1]
			c[k] += 3
		}
		if k < 27 && k%9 <= 6 && c[k+1] > 0 && c[k+2] > 0 {
			c[k]--
			c[k+1]--
			c[k+2]--
			cur = append(cur, slowGroup{run: true, kind: tile.Kind(k)})
			rec(pair)
			cur = cur[:len(cur)-1]
			c[k]++
			c[k+1]++
			c[k+2]++
		}
	}
	rec(-1)
	return pairs, groups
}

// slowSetPoints is the points of a pung or kong, from the table in words.
func slowSetPoints(k tile.Kind, kong, concealed bool) int {
	p := 2
	if k >= 27 || k%9 == 0 || k%9 == 8 {
		p *= 2 // major
	}
	if concealed {
		p *= 2
	}
	if kong {
		p *= 4
	}
	return p
}

// slowScore scores a win by the table's words: every reading, the
// winning tile placed in every group or the pair that holds its kind, the
// best ordinary score; a special hand when it pays as much. It returns
// the special hand, the ordinary score (0 without a reading), the score,
// and whether the hand wins at all.
func slowScore(h *Hand, win tile.Kind, s *Situation, r *Rules) (special Special, ordinary, score int, ok bool) {
	c := h.Concealed
	c[win]++
	if len(h.Melds) == 0 {
		special = slowSpecialOf(&c)
	}
	limit := r.Limit
	if !ValidLimit(limit) {
		limit = 1000
	}
	f := flags(h, s) // the situation's checks are tested on their own
	tsumo := f&flagTsumo != 0

	// Everything, melds included, for the colour of the hand.
	all := c
	for _, m := range h.Melds {
		if m.Type == Chow {
			all[m.Kind]++
			all[m.Kind+1]++
			all[m.Kind+2]++
		} else {
			all[m.Kind] += uint8(m.Len())
		}
	}
	suits := map[int]bool{}
	honours, major := false, true
	for k := tile.Kind(0); k < tile.NumKinds; k++ {
		if all[k] == 0 {
			continue
		}
		if k >= 27 {
			honours = true
		} else {
			suits[int(k)/9] = true
			if k%9 != 0 && k%9 != 8 {
				major = false
			}
		}
	}
	seatKind, roundKind := tile.East+tile.Kind(s.SeatWind), tile.East+tile.Kind(s.RoundWind)

	pairs, readings := slowReadings(c)
	best := -1
	for i, groups := range readings {
		pair := pairs[i]
		// Each place for the winning tile: -1 the pair, else a group.
		places := []int{}
		if pair == win {
			places = append(places, -1)
		}
		for j, g := range groups {
			if (g.run && win >= g.kind && win <= g.kind+2) || (!g.run && g.kind == win) {
				places = append(places, j)
			}
		}
		for _, place := range places {
			base, doubles := 20, 0
			if tsumo {
				base += 2
			}
			chows := false
			pung := func(k tile.Kind, kong, concealed bool) {
				base += slowSetPoints(k, kong, concealed)
				if k >= tile.Haku {
					doubles++
				}
				if k == seatKind {
					doubles++
				}
				if k == roundKind {
					doubles++
				}
			}
			for _, m := range h.Melds {
				switch m.Type {
				case Chow:
					chows = true
				case Pung:
					pung(m.Kind, false, false)
				case Kong:
					pung(m.Kind, true, false)
				case ConcealedKong:
					pung(m.Kind, true, true)
				}
			}
			for j, g := range groups {
				if g.run {
					chows = true
					continue
				}
				pung(g.kind, false, tsumo || place != j)
			}
			if pair >= tile.Haku {
				base += 2
			}
			if pair == seatKind {
				base += 2
			}
			if pair == roundKind {
				base += 2
			}
			for i := 0; i < 8; i++ {
				if h.Bonus&(1<<i) != 0 {
					base += 4
				}
			}
			if h.Bonus&(1<<s.SeatWind) != 0 {
				doubles++
			}
			if h.Bonus&(1<<(4+s.SeatWind)) != 0 {
				doubles++
			}
			if h.Bonus&0x0f == 0x0f {
				doubles += 2
			}
			if h.Bonus&0xf0 == 0xf0 {
				doubles += 2
			}
			if !chows {
				doubles++
			}
			if len(suits) == 1 && honours {
				doubles++
			}
			if len(suits) == 1 && !honours {
				doubles += 3
			}
			if major {
				doubles++
			}
			if s.Haitei && tsumo || s.Houtei && !tsumo && !s.Chankan {
				doubles++
			}
			if f&flagRinshan != 0 {
				doubles++
			}
			if s.Chankan && !tsumo {
				doubles++
			}
			if s.OriginalCall {
				doubles++
			}
			v := base
			for d := 0; d < doubles && v < limit; d++ {
				v *= 2
			}
			best = max(best, min(v, limit))
		}
	}
	if best < 0 && special == NoSpecial {
		return NoSpecial, 0, 0, false
	}
	ordinary = max(best, 0)
	score = max(ordinary, special.Limits()*limit)
	return special, ordinary, score, true
}
