package classical

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The fuzz targets decode any bytes into a classical hand (each kind at
// most four times, melds included) and compare the fast code with the slow
// searches of oracle_test.go.
//
// Byte 0: the number of melds (b % 5), whether the hand has one tile more
// than between turns (b / 5 % 2, for Shanten), the mode (b / 10 % 3): tiles
// a kind a byte, groups (a run, triplet, pair or single a byte), or a
// special hand (a template of slowSpecials less one tile, maybe with one
// tile changed). Byte 1: the situation flags, a bit each. Byte 2: the seat
// wind, the round wind and the limit, two bits each. Byte 3: the bonus
// tiles. Then a byte per meld: its type (b >> 6) and kind (b & 63 % 34).
// Then the winning tile, then the concealed tiles. Tiles still missing
// follow from the last kind, 11 kinds on.
func fuzzHand(data []byte, withWin bool) (h Hand, win tile.Kind, s Situation, r Rules) {
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	b0, b1, b2 := at(0), at(1), at(2)
	nm := int(b0 % 5)
	drawn := !withWin && b0/5%2 == 1
	mode := b0 / 10 % 3
	s = Situation{Tsumo: b1&1 != 0, Rinshan: b1&2 != 0, Chankan: b1&4 != 0,
		Haitei: b1&8 != 0, Houtei: b1&16 != 0, OriginalCall: b1&32 != 0,
		SeatWind: tile.Wind(b2 & 3), RoundWind: tile.Wind(b2 >> 2 & 3)}
	r.Limit = Limits[b2>>4&3]
	h.Bonus = BonusSet(at(3))
	win = tile.NumKinds

	var all tile.Counts
	room := func(k tile.Kind, n int) (tile.Kind, bool) {
		for range tile.NumKinds {
			if int(all[k])+n <= 4 {
				return k, true
			}
			k = (k + 1) % tile.NumKinds
		}
		return 0, false
	}
	pos := 4
	if mode == 2 {
		// A special hand less one tile, the winning tile if any, and maybe
		// one tile changed.
		nm = 0
		t := slowSpecials[int(at(pos))%len(slowSpecials)]
		drop := tile.Kind(at(pos+1)) % tile.NumKinds
		for t[drop] == 0 {
			drop = (drop + 1) % tile.NumKinds
		}
		t[drop]--
		if b := at(pos + 2); b&1 != 0 {
			from := tile.Kind(b>>1) % tile.NumKinds
			for t[from] == 0 {
				from = (from + 1) % tile.NumKinds
			}
			to := tile.Kind(at(pos+3)) % tile.NumKinds
			if t[to] < 4 {
				t[from]--
				t[to]++
			}
		}
		h.Concealed = t
		if withWin {
			w := tile.Kind(at(pos+4)) % tile.NumKinds
			if at(pos+4)&0x80 == 0 {
				w = drop
			}
			if t[w] >= 4 {
				w = drop
			}
			win = w
		} else if drawn {
			k := tile.Kind(at(pos+4)) % tile.NumKinds
			if h.Concealed[k] < 4 {
				h.Concealed[k]++
			}
		}
		return h, win, s, r
	}
	var melds [4]Meld
	for i := range nm {
		b := at(pos)
		pos++
		m := Meld{Type: MeldType(b>>6) + 1, Kind: tile.Kind(b&63) % tile.NumKinds}
		if m.Type == Chow {
			if m.Kind >= 27 {
				m.Kind %= 27
			}
			if m.Kind%9 > 6 {
				m.Kind -= 2
			}
			if all[m.Kind] >= 4 || all[m.Kind+1] >= 4 || all[m.Kind+2] >= 4 {
				nm = i
				break
			}
			all[m.Kind]++
			all[m.Kind+1]++
			all[m.Kind+2]++
		} else {
			k, ok := room(m.Kind, m.Len())
			if !ok {
				nm = i
				break
			}
			m.Kind = k
			all[k] += uint8(m.Len())
		}
		melds[i] = m
	}
	h.Melds = melds[:nm]
	if withWin {
		k, _ := room(tile.Kind(at(pos))%tile.NumKinds, 1)
		pos++
		win = k
		all[k]++
	}
	size := 13 - 3*nm
	if drawn {
		size++
	}
	n := 0
	add := func(k tile.Kind, times int) bool {
		if n+times > size || int(all[k])+times > 4 {
			return false
		}
		h.Concealed[k] += uint8(times)
		all[k] += uint8(times)
		n += times
		return true
	}
	last := tile.Kind(0)
	for _, b := range data[min(pos, len(data)):] {
		if n == size {
			break
		}
		if mode == 0 {
			if k, ok := room(tile.Kind(b)%tile.NumKinds, 1); ok {
				add(k, 1)
				last = k
			}
			continue
		}
		k := tile.Kind(b&63) % tile.NumKinds
		last = k
		switch b >> 6 {
		case 0:
			if k < 27 && k%9 <= 6 && n+3 <= size && all[k] < 4 && all[k+1] < 4 && all[k+2] < 4 {
				add(k, 1)
				add(k+1, 1)
				add(k+2, 1)
			}
		case 1:
			add(k, 3)
		case 2:
			add(k, 2)
		default:
			add(k, 1)
		}
	}
	for k := last; n < size; {
		k = (k + 11) % tile.NumKinds
		if k2, ok := room(k, 1); ok {
			add(k2, 1)
			k = k2
		}
	}
	return h, win, s, r
}

func FuzzScore(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, win, s, r := fuzzHand(data, true)
		res := Score(&h, win, &s, &r)
		special, ordinary, score, ok := slowScore(&h, win, &s, &r)
		line := formatLine(&h, win, &s, &r)
		if res.Win != ok {
			t.Fatalf("%s: Score win %v, slow %v", line, res.Win, ok)
		}
		if !ok {
			return
		}
		if res.Special != special || res.Ordinary != ordinary || res.Score != score {
			t.Fatalf("%s: Score = %v %d %d, slow %v %d %d (%s)", line, res.Special, res.Ordinary, res.Score,
				special, ordinary, score, linesString(&res))
		}
		checkResult(t, line, &res, &r)
	})
}

// checkResult checks what a Result says of itself: the lines add up, the
// ordinary score is the base doubled and capped, the special hand's limits.
func checkResult(t *testing.T, line string, res *Result, r *Rules) {
	t.Helper()
	base, doubles := 0, 0
	for _, l := range res.Lines() {
		if l.Total != l.Count*l.Item.Value() || l.Count <= 0 {
			t.Fatalf("%s: line %v count %d total %d", line, l.Item, l.Count, l.Total)
		}
		if l.Item.IsDouble() {
			doubles += l.Total
		} else {
			base += l.Total
		}
	}
	if base != res.Base || doubles != res.Doubles {
		t.Fatalf("%s: lines add to %d points %d doubles, result says %d %d", line, base, doubles, res.Base, res.Doubles)
	}
	if res.Base > 0 {
		raw := res.Base << min(res.Doubles, 30)
		if res.Ordinary != min(raw, r.Limit) || res.LimitReached != (raw > r.Limit) {
			t.Fatalf("%s: ordinary %d (limit reached %v) from %d points and %d doubles", line, res.Ordinary, res.LimitReached, res.Base, res.Doubles)
		}
	}
	if res.Limits != res.Special.Limits() {
		t.Fatalf("%s: limits %d for %v", line, res.Limits, res.Special)
	}
	if res.AsSpecial != (res.Special != NoSpecial && res.Score == res.Limits*r.Limit) {
		t.Fatalf("%s: as special %v, special %v score %d", line, res.AsSpecial, res.Special, res.Score)
	}
}

func FuzzTenpai(f *testing.F) {
	for _, seed := range fuzzSeeds {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h, _, _, _ := fuzzHand(data, false)
		line := formatLine(&h, tile.NumKinds, &Situation{}, &Default)
		if got, want := FishingFor(&h), slowFishing(&h); got != want {
			t.Fatalf("%s: FishingFor = %v, slow %v", line, got.Waits, want.Waits)
		}
		if got, want := Waits(&h), slowWaits(&h); got != want {
			t.Fatalf("%s: Waits = %v, slow %v", line, got, want)
		}
		// The exhaustive search tells complete and fishing apart from the
		// rest cheaply (TestShantenOracle goes one step deeper).
		sh := Shanten(&h)
		if got, want := min(sh, 1), slowShantenUpTo(&h, 0); got != want {
			t.Fatalf("%s: Shanten = %d, slow (up to 0) %d", line, sh, want)
		}
		// Fishing for a special hand is being one tile from Mah Jong.
		if f := FishingFor(&h); f.Any() && sh != 0 {
			t.Fatalf("%s: fishing for %v at shanten %d", line, f.Waits, sh)
		}
	})
}

// fuzzSeeds start the fuzzers (more under testdata/fuzz): the first bytes
// choose melds, mode, flags, winds, limit and bonus tiles.
var fuzzSeeds = [][]byte{
	{0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14},
	{10, 1, 5, 3, 0x41, 0x44, 0x47, 0x0a, 0x8d, 0xc2},
	{20, 0, 0, 0, 0, 3, 0, 0, 0},
	{20, 1, 0x13, 0xff, 40, 7, 1, 9, 0x85},
	{20, 16, 0x21, 0, 60, 30, 0, 0, 0x80},
	{21, 4, 0x06, 0x11, 0x5b, 0x5c, 0x20, 0x41, 0x4a},
	{13, 9, 0x33, 0x0f, 0x1b, 0x9c, 0x5d, 0x1e, 0x41, 0x44, 0x87},
	{4, 3, 0x05, 0xf0, 0x5b, 0x5c, 0x9d, 0xe0, 0x1f, 0x20, 0x81},
}
