package sichuan

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The fuzz targets decode any bytes into a Sichuan hand (each kind at most
// four times, melds included) and compare the fast code with the slow
// searches of oracle_test.go.
//
// Byte 0: the void suit (b % 3), the number of melds (b / 3 % 5), whether
// the hand has one tile more than between turns (b / 15 % 2, for Shanten),
// whether tiles of the void suit move to the next suit (b / 30 % 2, so
// that most hands can win), group mode (b / 60 % 2). Byte 1: the
// situation flags, a bit each, and the cap (b >> 6, plus 2). Then a byte
// per meld: its type (b >> 6) and kind (b & 63 % 27). Then the winning
// tile. Then the concealed tiles as in judge's fuzz decoder: a kind a byte,
// or in group mode a run, triplet, pair or single (b >> 6) from kind
// b & 63 % 27. Tiles still missing follow from the last kind, 11 kinds on.
func fuzzHand(data []byte, withWin bool) (h Hand, win tile.Kind, s Situation, r Rules) {
	at := func(i int) byte {
		if i < len(data) {
			return data[i]
		}
		return 0
	}
	b0, b1 := at(0), at(1)
	h.Void = tile.Suit(b0 % 3)
	nm := int(b0 / 3 % 5)
	drawn := !withWin && b0/15%2 == 1
	avoid := b0/30%2 == 1
	groups := b0/60%2 == 1
	s = Situation{Tsumo: b1&1 != 0, Rinshan: b1&2 != 0, AfterKanDiscard: b1&4 != 0,
		Chankan: b1&8 != 0, Haitei: b1&16 != 0, Houtei: b1&32 != 0}
	r.FanCap = int(b1>>6) + 2

	var all tile.Counts // concealed, melds and the winning tile
	kindOf := func(b byte) tile.Kind {
		k := tile.Kind(int(b) % 27)
		if avoid && tile.Suit(k/9) == h.Void {
			k = (k + 9) % 27
		}
		return k
	}
	// room finds a kind from k on (in steps of 11, then of 1) with n
	// tiles to spare.
	room := func(k tile.Kind, n int) (tile.Kind, bool) {
		for range 27 {
			if int(all[k])+n <= 4 && !(avoid && tile.Suit(k/9) == h.Void) {
				return k, true
			}
			k = (k + 1) % 27
		}
		return 0, false
	}
	pos := 2
	var melds [4]Meld
	for i := range nm {
		b := at(pos)
		pos++
		m := Meld{Type: MeldType(b>>6) + 1}
		k, ok := room(kindOf(b&63), m.Len())
		if !ok {
			nm = i
			break
		}
		m.Kind = k
		all[k] += uint8(m.Len())
		melds[i] = m
	}
	h.Melds = melds[:nm]
	if withWin {
		k, _ := room(kindOf(at(pos)), 1)
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
		k := kindOf(b & 63)
		if !groups {
			k = kindOf(b)
			if k2, ok := room(k, 1); ok {
				add(k2, 1)
				last = k2
			}
			continue
		}
		last = k
		switch b >> 6 {
		case 0:
			if k%9 <= 6 && n+3 <= size && all[k] < 4 && all[k+1] < 4 && all[k+2] < 4 {
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
	for n < size {
		last = (last + 11) % 27
		if k, ok := room(last, 1); ok {
			add(k, 1)
		} else {
			break // no room anywhere: cannot happen with 108 tiles
		}
	}
	return h, win, s, r
}

// seed encodes a hand in tile mode: void suit, concealed tiles, melds
// (pon or kan kinds) and an optional winning tile.
func seed(void tile.Suit, melds []Meld, win tile.Kind, concealed string, flags byte, drawn bool) []byte {
	b0 := byte(void) + 3*byte(len(melds))
	if drawn {
		b0 += 15
	}
	data := []byte{b0, flags}
	for _, m := range melds {
		data = append(data, byte(m.Type-1)<<6|byte(m.Kind))
	}
	data = append(data, byte(win))
	for _, t := range tile.MustParse(concealed) {
		data = append(data, byte(t.Kind()))
	}
	return data
}

func addSeeds(f *testing.F, withWin bool) {
	f.Add(seed(tile.Pin, nil, tile.S5, "123m456m789m234s5s", 0, false))
	f.Add(seed(tile.Sou, nil, tile.M6, "1111m2233m4455m6m", 0, false))
	f.Add(seed(tile.Pin, nil, tile.S5, "123m456m789m234s5p", 1, true))
	f.Add(seed(tile.Man, []Meld{{ClosedKan, tile.P1}, {OpenKan, tile.S2}}, tile.S5, "345p789s5s", 3, false))
	f.Add(seed(tile.Pin, []Meld{{OpenKan, tile.S2}, {ClosedKan, tile.S3}, {OpenKan, tile.S4}, {Pon, tile.S5}}, tile.S1, "1s", 1|2|16, false))
	f.Add(seed(tile.Sou, nil, tile.P2, "111m444m777p999p2p", 8|32, false))
	f.Add([]byte{60 + 30 + 3, 0, 1, 2, 64 + 9, 128 + 20, 0 + 10, 0 + 13, 192 + 1})
	if !withWin {
		f.Add(seed(tile.Pin, nil, 0, "1112223334445p", 0, false))
	}
}

func FuzzScore(f *testing.F) {
	addSeeds(f, true)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, win, s, r := fuzzHand(data, true)
		got, want := Score(&h, win, &s, &r), slowScore(&h, win, &s, &r)
		if got != want {
			t.Errorf("Score(%s %v void %v, %v, %+v, cap %d) = %+v, want %+v", &h.Concealed, h.Melds, h.Void, win, s, r.FanCap, got, want)
		}
		if got.Win != CanWin(&h, win) {
			t.Errorf("CanWin(%s %v void %v, %v) = %v, Score wins %v", &h.Concealed, h.Melds, h.Void, win, !got.Win, got.Win)
		}
	})
}

func FuzzShanten(f *testing.F) {
	addSeeds(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, _, _, _ := fuzzHand(data, false)
		if got, want := Shanten(&h), slowShanten(&h); got != want {
			t.Errorf("Shanten(%s %v void %v) = %d, want %d", &h.Concealed, h.Melds, h.Void, got, want)
		}
	})
}

func FuzzWaits(f *testing.F) {
	addSeeds(f, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		h, _, _, r := fuzzHand(data, true) // the winning tile byte is skipped
		w := Waits(&h)
		if want := slowWaits(&h); w != want {
			t.Errorf("Waits(%s %v void %v) = %v, want %v", &h.Concealed, h.Melds, h.Void, w, want)
		}
		// Tenpai is shanten 0 and some wait (but a meld of the void suit,
		// which no table allows, leaves Shanten to the concealed tiles and
		// the hand without waits); Ready drops the waits on a kind the seat
		// holds all four of; BestValue is the best score of those.
		voidMeld := false
		for _, m := range h.Melds {
			voidMeld = voidMeld || tile.Suit(m.Kind/9) == h.Void
		}
		if sh := Shanten(&h); (sh == 0) != (w != 0) && !voidMeld {
			t.Errorf("Shanten(%s %v void %v) = %d with waits %v", &h.Concealed, h.Melds, h.Void, sh, w)
		}
		best, ready := 0, false
		for k := range w.All() {
			held := int(h.Concealed[k])
			for _, m := range h.Melds {
				if m.Kind == k {
					held += m.Len()
				}
			}
			if held == 4 {
				continue
			}
			ready = true
			best = max(best, slowScore(&h, k, &Situation{}, &r).Value)
		}
		if Ready(&h) != ready || BestValue(&h, &r) != best {
			t.Errorf("Ready, BestValue(%s %v void %v) = %v, %d; want %v, %d", &h.Concealed, h.Melds, h.Void, Ready(&h), BestValue(&h, &r), ready, best)
		}
	})
}

// TestFuzzHand checks the decoder: every input gives a hand of a size its
// melds allow, no kind more than four times.
func TestFuzzHand(t *testing.T) {
	for i := range 2000 {
		in := make([]byte, i%24)
		for j := range in {
			in[j] = byte(i*31 + j*17 + i/7)
		}
		for _, withWin := range []bool{false, true} {
			h, win, _, _ := fuzzHand(in, withWin)
			all := h.Concealed
			if withWin {
				all[win]++
			}
			for _, m := range h.Melds {
				all[m.Kind] += uint8(m.Len())
			}
			n, nm := h.Concealed.Total(), len(h.Melds)
			ok := n == 13-3*nm || !withWin && n == 14-3*nm
			for _, v := range all {
				ok = ok && v <= 4
			}
			if !ok {
				t.Fatalf("fuzzHand(%v, %v) = %s %v win %v: not a hand", in, withWin, &h.Concealed, h.Melds, win)
			}
		}
	}
}
