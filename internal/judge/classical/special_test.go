package classical

import (
	"math/rand/v2"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// TestSpecialHands holds every special hand complete, fishing, and near
// misses (a tile changed, a meld exposed), through Score, FishingFor,
// Waits and Shanten.
func TestSpecialHands(t *testing.T) {
	tests := []struct {
		line    string
		special Special // the win's special hand; NoSpecial when none
		win     bool    // whether the hand wins at all
	}{
		// Wriggly Snake: any of the thirteen paired, any suit, on a
		// discard or self-drawn.
		{"123456789m1234z | 1m", WrigglySnake, true},
		{"123456789m1234z | 5m", WrigglySnake, true},
		{"123456789m1234z | 9m tsumo", WrigglySnake, true},
		{"123456789p1234z | 3z", WrigglySnake, true},
		{"12345689s11234z | 7s", WrigglySnake, true},
		{"123456789s1124z | 3z seat=W", WrigglySnake, true},
		// Near misses: a dragon for a wind, a tile of another suit, a
		// wind three times, one of the nine missing, a chow exposed.
		{"123456789m1234z | 5z", NoSpecial, false},
		{"123456789m1235z | 4z", NoSpecial, false},
		{"123456789m1234z | 1p", NoSpecial, false},
		{"123456788m1234z | 1m", NoSpecial, false},
		{"12345678m11234z | 1z", NoSpecial, false},
		{"123456m1234z chow:789m | 1z", NoSpecial, false},

		// Unique Wonder: any of the thirteen paired.
		{"19m19p19s1234567z | 1m", UniqueWonder, true},
		{"19m19p19s1234567z | 9p", UniqueWonder, true},
		{"19m19p19s1234567z | 7z tsumo", UniqueWonder, true},
		{"119m19p1s1234567z | 9s", UniqueWonder, true},
		// Near misses: a simple for a terminal, a fourteenth tile off the
		// thirteen, an exposed pung.
		{"19m19p19s1234567z | 5m", NoSpecial, false},
		{"129m19p1s1234567z | 9s", NoSpecial, false},
		{"119m19p19s123456z | 6z", NoSpecial, false},
		{"19m19p19s1234z pung:555z | 6z", NoSpecial, false},

		// Gates of Heaven: the extra tile any of 2-8, won on it or on
		// another tile of the pattern.
		{"1112345678999m | 2m", GatesOfHeaven, true},
		{"1112345678999m | 5m", GatesOfHeaven, true},
		{"1112345678999s | 8s tsumo", GatesOfHeaven, true},
		{"1112345678899p | 9p", GatesOfHeaven, true},
		{"1122345678999p | 1p", GatesOfHeaven, true},
		{"1112355678999m | 4m", GatesOfHeaven, true},
		// Near misses: the extra tile a 1 or a 9 (four sets and a pair
		// all the same), a tile changed for another suit's, the pung
		// of ones exposed.
		{"1112345678999m | 1m", NoSpecial, true},
		{"1112345678999m | 9m", NoSpecial, true},
		{"1112345678999m | 5p", NoSpecial, false},
		{"1112345678995m | 5p", NoSpecial, false},
		{"2345678999m pung:111m | 5m", NoSpecial, true},
	}
	for _, tt := range tests {
		h, win, s, r := mustLine(t, tt.line)
		res := Score(&h, win, &s, &r)
		if res.Win != tt.win || res.Special != tt.special {
			t.Errorf("Score(%s) = win %v special %v, want win %v special %v", tt.line, res.Win, res.Special, tt.win, tt.special)
		}
		if tt.special != NoSpecial && (res.Score != tt.special.Limits()*1000 || !res.AsSpecial) {
			t.Errorf("Score(%s) = %d (as special %v), want %d", tt.line, res.Score, res.AsSpecial, tt.special.Limits()*1000)
		}
		// The hand before the winning tile fishes for the special hand
		// the win makes, and waits on the winning tile.
		f := FishingFor(&h)
		fishing := f.For(tt.special).Has(win)
		if tt.special != NoSpecial && (!fishing || Shanten(&h) != 0 || !Waits(&h).Has(win)) {
			t.Errorf("%s: FishingFor %v, Shanten %d, Waits %v: want fishing for %v on %v",
				tt.line, f.Waits, Shanten(&h), Waits(&h), tt.special, win)
		}
		if f != slowFishing(&h) {
			t.Errorf("%s: FishingFor = %v, slow %v", tt.line, f.Waits, slowFishing(&h).Waits)
		}
	}
}

// TestFishing lists the waits of hands fishing for special hands, and of
// hands one tile further away.
func TestFishing(t *testing.T) {
	tests := []struct {
		hand                 string
		snake, wonder, gates string // the waits of each special hand
		waits                string // every completing tile
		shanten              int
	}{
		// Thirteen-sided waits: the thirteen kinds once each.
		{"123456789m1234z", "123456789m1234z", "", "", "123456789m1234z", 0},
		{"123456789s1234z", "123456789s1234z", "", "", "123456789s1234z", 0},
		{"19m19p19s1234567z", "", "19m19p19s1234567z", "", "19m19p19s1234567z", 0},
		// One of the thirteen paired, one missing: a single wait.
		{"12345678m11234z", "9m", "", "", "9m", 0},
		{"22345678p9p1234z", "1p", "", "", "1p", 0},
		{"119m19p1s1234567z", "", "9s", "", "9s", 0},
		{"19m19p19s1234566z", "", "7z", "", "7z", 0},
		// The nine gates: 2-8 for the pattern (1-9 for four sets and a
		// pair); a missing 1 or 9 is the single gate.
		{"1112345678999m", "", "", "2345678m", "123456789m", 0},
		{"1112345678899p", "", "", "9p", "789p", 0},
		{"1122345678999s", "", "", "1s", "123s", 0},
		{"1112345677999m", "", "", "8m", "1478m", 0},
		// Near misses: two tiles away, or a tile of a fourth kind.
		{"12345678m1234z5z", "", "", "", "", 1},
		{"129m19p1s1234567z", "", "", "", "", 1},
		{"1112345678999p", "", "", "2345678p", "123456789p", 0},
		{"1112345679999m", "", "", "", "89m", 0},
		{"11123456789m99p", "", "", "", "147m9p", 0},
	}
	for _, tt := range tests {
		h, _, _, _ := mustLine(t, tt.hand)
		f := FishingFor(&h)
		for s, want := range map[Special]string{WrigglySnake: tt.snake, UniqueWonder: tt.wonder, GatesOfHeaven: tt.gates} {
			if got := f.For(s).String(); got != want {
				t.Errorf("FishingFor(%s) for %v = %q, want %q", tt.hand, s, got, want)
			}
		}
		if got := Waits(&h).String(); got != tt.waits {
			t.Errorf("Waits(%s) = %q, want %q", tt.hand, got, tt.waits)
		}
		if got := Shanten(&h); got != tt.shanten {
			t.Errorf("Shanten(%s) = %d, want %d", tt.hand, got, tt.shanten)
		}
	}
	// A special hand needs a concealed hand: with a meld, nothing.
	h, _, _, _ := mustLine(t, "123456m1234z chow:789m")
	if f := FishingFor(&h); f.Any() {
		t.Errorf("FishingFor(with a chow) = %v, want none", f.Waits)
	}
}

// TestSpecialOf holds SpecialOf against the list of every special hand,
// and against every hand one tile changed from one.
func TestSpecialOf(t *testing.T) {
	for i, c := range slowSpecials {
		if got := SpecialOf(&c); got != slowSpecialNames[i] {
			t.Errorf("SpecialOf(%v) = %v, want %v", c.String(), got, slowSpecialNames[i])
		}
		for from := tile.Kind(0); from < tile.NumKinds; from++ {
			if c[from] == 0 {
				continue
			}
			for to := tile.Kind(0); to < tile.NumKinds; to++ {
				d := c
				d[from]--
				d[to]++
				if to == from || d[to] > 4 {
					continue
				}
				if got, want := SpecialOf(&d), slowSpecialOf(&d); got != want {
					t.Errorf("SpecialOf(%v) = %v, want %v", d.String(), got, want)
				}
			}
		}
	}
}

// TestShantenOracle holds Shanten against the exhaustive search one step
// deeper than the fuzzer does, on hands near the special hands and random
// ones.
func TestShantenOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 3))
	n := 60
	if testing.Short() {
		n = 10
	}
	for i := 0; i < n; i++ {
		data := make([]byte, 24)
		for j := range data {
			data[j] = byte(rng.IntN(256))
		}
		data[0] = byte(rng.IntN(3) * 10) // no melds: the special hands count
		h, _, _, _ := fuzzHand(data, false)
		if got, want := min(Shanten(&h), 2), slowShantenUpTo(&h, 1); got != want {
			t.Errorf("Shanten(%s) = %d, slow (up to 1) %d", formatLine(&h, tile.NumKinds, &Situation{}, &Default), got, want)
		}
	}
}
