package mcr

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// byteSource hands out the fuzzer's bytes, zeros once they run out.
type byteSource struct {
	b []byte
	i int
}

func (s *byteSource) next() int {
	if s.i >= len(s.b) {
		return 0
	}
	s.i++
	return int(s.b[s.i-1])
}

// handFromBytes builds a hand from fuzz input: mostly four sets and a pair
// (some of the sets melds), sometimes a special form or random tiles, so
// that most inputs are complete hands worth scoring. ok is false when the
// tiles would exceed four of a kind.
func handFromBytes(data []byte) (h judge.Hand, win tile.Tile, s Situation, ok bool) {
	src := &byteSource{b: data}
	mode := src.next()
	flags := src.next()
	s = Situation{
		Tsumo: flags&1 != 0, LastTile: flags&2 != 0, Rinshan: flags&4 != 0, Chankan: flags&8 != 0,
		Haitei: flags&16 != 0, Houtei: flags&32 != 0,
		SeatWind: tile.Wind(src.next() & 3), RoundWind: tile.Wind(src.next() & 3), Flowers: src.next() % 9,
	}
	var c tile.Counts
	var concealed []tile.Kind
	add := func(k tile.Kind, n int) {
		for range n {
			c[k]++
			concealed = append(concealed, k)
		}
	}
	switch mode % 8 {
	case 0: // random tiles
		for range 14 {
			add(tile.Kind(src.next()%tile.NumKinds), 1)
		}
	case 1: // seven pairs
		for range 7 {
			add(tile.Kind(src.next()%tile.NumKinds), 2)
		}
	case 2: // knitted straight (or honours and knitted) and the rest random
		p := knittedPatterns[src.next()%6]
		for _, cd := range p {
			add(codeKind[cd], 1)
		}
		for range 5 {
			add(tile.Kind(src.next()%tile.NumKinds), 1)
		}
	case 3: // thirteen orphans
		for k := range tile.Yaochu.All() {
			add(k, 1)
		}
		add(tile.Kind(src.next()%tile.NumKinds), 1)
	default: // four sets and a pair, some melded
		for range 4 {
			b := src.next()
			k := tile.Kind(src.next() % tile.NumKinds)
			melded := b&8 != 0 && len(h.Melds) < 4
			switch b % 4 {
			case 0, 1: // chow
				if k >= 27 {
					k %= 27
				}
				if k%9 > 6 {
					k -= 2
				}
				if melded {
					h.Melds = append(h.Melds, judge.Meld{Type: judge.Chi, Tiles: [4]tile.Tile{tile.Plain(k), tile.Plain(k + 1), tile.Plain(k + 2)}})
					c[k]++
					c[k+1]++
					c[k+2]++
				} else {
					add(k, 1)
					add(k+1, 1)
					add(k+2, 1)
				}
			case 2: // pung
				if melded {
					h.Melds = append(h.Melds, judge.Meld{Type: judge.Pon, Tiles: [4]tile.Tile{tile.Plain(k), tile.Plain(k), tile.Plain(k)}})
					c[k] += 3
				} else {
					add(k, 3)
				}
			case 3: // kong
				typ := judge.OpenKan
				if b&16 != 0 {
					typ = judge.ClosedKan
				}
				h.Melds = append(h.Melds, judge.Meld{Type: typ, Tiles: [4]tile.Tile{tile.Plain(k), tile.Plain(k), tile.Plain(k), tile.Plain(k)}})
				c[k] += 4
			}
		}
		add(tile.Kind(src.next()%tile.NumKinds), 2)
	}
	for _, n := range c {
		if n > 4 {
			return h, 0, s, false
		}
	}
	wi := src.next() % len(concealed)
	win = tile.Plain(concealed[wi])
	for i, k := range concealed {
		if i != wi {
			h.Concealed = append(h.Concealed, tile.Plain(k))
		}
	}
	return h, win, s, true
}

// slowReadings lists every way to read c as sets and a pair by brute
// force: take the lowest tile left as a pung or as the start of a chow.
func slowReadings(c *tile.Counts) []judge.Reading {
	var out []judge.Reading
	var cur judge.Reading
	var rec func(c *tile.Counts)
	rec = func(c *tile.Counts) {
		k := 0
		for k < tile.NumKinds && c[k] == 0 {
			k++
		}
		if k == tile.NumKinds {
			out = append(out, cur)
			return
		}
		if cur.N == 4 {
			return
		}
		if c[k] >= 3 {
			c[k] -= 3
			cur.Groups[cur.N] = judge.Group{Type: judge.Triplet, Kind: tile.Kind(k)}
			cur.N++
			rec(c)
			cur.N--
			c[k] += 3
		}
		if k < 27 && k%9 <= 6 && c[k+1] > 0 && c[k+2] > 0 {
			c[k]--
			c[k+1]--
			c[k+2]--
			cur.Groups[cur.N] = judge.Group{Type: judge.Run, Kind: tile.Kind(k)}
			cur.N++
			rec(c)
			cur.N--
			c[k]++
			c[k+1]++
			c[k+2]++
		}
	}
	for p := range c {
		if c[p] >= 2 {
			c[p] -= 2
			cur = judge.Reading{Pair: tile.Kind(p)}
			rec(c)
			c[p] += 2
		}
	}
	return out
}

// slowBest is the total Score must reach: a special form that is not
// seven pairs stands alone; otherwise the best of seven pairs and every
// reading found by brute force.
func slowBest(h *judge.Hand, win tile.Tile, s *Situation) int {
	var sc scorer
	if !sc.init(h, win, s) {
		return 0
	}
	var t fanTable
	switch sc.nMelds {
	case 0:
		_ = sc.specialForm(&t) || sc.knitted(&t) || sc.nineGates(&t)
	case 1:
		sc.knitted(&t)
	}
	best := t.total()
	if best != 0 && t[SevenPairs] == 0 {
		return best
	}
	unique := sc.uniqueWait()
	sc.readingTraits()
	c := sc.kinds
	for _, r := range slowReadings(&c) {
		var cur fanTable
		sc.regular(&r, unique, &cur)
		best = max(best, cur.total())
	}
	return best
}

func FuzzScore(f *testing.F) {
	f.Add([]byte{4, 0, 0, 0, 0, 0, 1, 0, 4, 1, 10, 2, 25, 3, 30, 7})
	f.Add([]byte{1, 1, 1, 1, 3, 3, 4, 5, 6, 7, 8, 9, 2})
	f.Add([]byte{2, 2, 0, 0, 0, 1, 27, 28, 29, 30, 31})
	f.Add([]byte{3, 0, 0, 0, 8, 33, 5})
	f.Add([]byte{0, 63, 3, 3, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14})
	f.Add([]byte{5, 5, 1, 2, 8, 11, 0, 11, 9, 11, 18, 11, 27, 0, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		h, win, s, ok := handFromBytes(data)
		if !ok {
			return
		}
		r := Score(&h, win, &s)
		if len(r.Fans()) > maxLines/2 {
			t.Fatalf("%d fans: too close to maxLines", len(r.Fans()))
		}
		sum := 0
		for _, l := range r.Fans() {
			if !l.Fan.Valid() || l.Count <= 0 || l.Points != l.Count*l.Fan.Value() {
				t.Fatalf("bad line %+v", l)
			}
			sum += l.Points
		}
		if sum != r.Total || r.TotalWithoutFlowers != r.Total-r.Count(FlowerTiles) || r.MeetsMinimum != (r.TotalWithoutFlowers >= MinimumFan) {
			t.Fatalf("totals %d/%d/%v, lines add to %d", r.Total, r.TotalWithoutFlowers, r.MeetsMinimum, sum)
		}
		c := tile.CountsOf(h.Concealed)
		c[win.Kind()]++
		if r.Win != Complete(&c) {
			t.Fatalf("%v + %v %v: Score win %v, Complete %v", tile.Format(h.Concealed), win, h.Melds, r.Win, Complete(&c))
		}
		if !r.Win {
			return
		}
		if want := slowBest(&h, win, &s); r.TotalWithoutFlowers != want {
			t.Fatalf("%v + %v %v: Score %d (%v), brute force %d", tile.Format(h.Concealed), win, h.Melds, r.TotalWithoutFlowers, r.Fans(), want)
		}
		if Shanten(&c) != -1 {
			t.Fatalf("%v + %v: complete, but shanten %d", tile.Format(h.Concealed), win, Shanten(&c))
		}
		hc := tile.CountsOf(h.Concealed)
		if !Waits(&hc).Has(win.Kind()) || Shanten(&hc) != 0 {
			t.Fatalf("%v: won on %v, but waits %v, shanten %d", tile.Format(h.Concealed), win, Waits(&hc), Shanten(&hc))
		}
	})
}

// FuzzTenpai checks the tenpai answers against each other on hands of 13
// less 3 per meld tiles: every wait completes the hand and no other kind
// does, and the hand is tenpai (shanten 0) exactly when it has a wait.
func FuzzTenpai(f *testing.F) {
	f.Add([]byte{0, 3, 6, 10, 13, 16, 20, 23, 26, 27, 28, 29, 30})
	f.Add([]byte{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6})
	f.Add([]byte{1, 9, 10, 11, 12, 13, 14, 15, 16, 17, 17})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		n := 13 - 3*(int(data[0])%5)
		if len(data) < n+1 {
			return
		}
		var c tile.Counts
		for _, b := range data[1 : n+1] {
			k := tile.Kind(b % tile.NumKinds)
			if c[k] == 4 {
				return
			}
			c[k]++
		}
		w := Waits(&c)
		for k := tile.Kind(0); k < tile.NumKinds; k++ {
			d := c
			d[k]++
			if Complete(&d) != w.Has(k) {
				t.Fatalf("%v + %v: complete %v, in waits %v", c.String(), k, Complete(&d), w)
			}
		}
		if s := Shanten(&c); (s == 0) != (w != 0) || s < 0 {
			t.Fatalf("%v: shanten %d, waits %v", c.String(), s, w)
		}
	})
}
