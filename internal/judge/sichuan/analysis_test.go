package sichuan

import (
	"math/rand/v2"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

func TestShantenWaits(t *testing.T) {
	tests := []struct {
		name, hand string
		shanten    int
		waits      string
		ready      bool
		best       int // BestValue under the default cap
	}{
		{"tenpai", "p 123m456m789m234s5s", 0, "25s", true, 1},
		{"complete", "p 123m456m789m234s55s", -1, "", false, 0},
		{"nobetan and shanpon", "p 11223344m55567s", 0, "14m58s", true, 2},
		// Seven pairs with four of a kind: two pairs.
		{"seven pairs with a quad", "s 1111m2233m4455m6m", 0, "2356m", true, 8},
		{"seven pairs and a triplet", "s 111m22m33m44m55m66m", 0, "1234567m", true, 8},
		{"seven pairs one away", "s 1133m5577m224p89p", 1, "", false, 0},
		// A wait on a tile the hand holds four of is listed, but the seat is
		// not ready on it.
		{"fifth tile wait", "s 1m pon:111m pon:222p pon:333p pon:444p", 0, "1m", false, 0},
		{"fifth tile and another", "s 1111m234m567p789p", 0, "14m", true, 2},
		{"closed kan, fourth tile wait", "s 1m ankan:1111m", ShantenUnreachable, "", false, 0},
		// Void tiles are dead: each must go, and while one is held there
		// are no waits.
		{"one void tile", "p 123m456m789m234s5p", 1, "", false, 0},
		{"two void tiles", "s 123m456m789m11p8s9s", 2, "", false, 0},
		{"void tile, after a draw", "p 123m456m789m234s5s9p", 0, "", false, 0},
		{"void tile in a complete shape", "p 123m456m789m234s55p", 1, "", false, 0},
		{"all void", "p 1112223334445p", 13, "", false, 0},
		{"all void after a draw", "p 11122233344455p", 13, "", false, 0},
		{"far", "m 147p258p369s147s9s", 3, "", false, 0},
		{"melds", "p 23m55s pon:999m kan:7777s ankan:1111m", 0, "14m", true, 4},
		{"too few tiles", "p 23m55s", ShantenUnreachable, "", false, 0},
		{"no void suit", "- 123m456p789s234s5s", 0, "25s", true, 1},
	}
	for _, tt := range tests {
		h := hand(t, tt.hand)
		if got := Shanten(&h); got != tt.shanten {
			t.Errorf("%s: Shanten(%s) = %d, want %d", tt.name, tt.hand, got, tt.shanten)
		}
		if got := slowShanten(&h); got != tt.shanten {
			t.Errorf("%s: slowShanten(%s) = %d, want %d", tt.name, tt.hand, got, tt.shanten)
		}
		w := Waits(&h)
		if w.String() != tt.waits || slowWaits(&h) != w {
			t.Errorf("%s: Waits(%s) = %q (slow %q), want %q", tt.name, tt.hand, w, slowWaits(&h), tt.waits)
		}
		if got := Ready(&h); got != tt.ready {
			t.Errorf("%s: Ready(%s) = %v, want %v", tt.name, tt.hand, got, tt.ready)
		}
		if got := BestValue(&h, &Default); got != tt.best {
			t.Errorf("%s: BestValue(%s) = %d, want %d", tt.name, tt.hand, got, tt.best)
		}
		for k := tile.Kind(0); k < 27; k++ {
			held := int(h.Concealed[k])
			for _, m := range h.Melds {
				if m.Kind == k {
					held += m.Len()
				}
			}
			if got := CanWin(&h, k); got != (w.Has(k) && held < 4) {
				t.Errorf("%s: CanWin(%s, %v) = %v, waits %q", tt.name, tt.hand, k, got, w)
			}
		}
	}
}

func TestHoldsVoid(t *testing.T) {
	for _, tt := range []struct {
		hand string
		want bool
	}{
		{"p 123m456m789m234s5s", false},
		{"p 123m456m789m234s5p", true},
		{"p 123m456m234s5s pon:777p", true},
		{"- 123m456p789s234s5s", false},
	} {
		h := hand(t, tt.hand)
		if got := HoldsVoid(&h); got != tt.want || slowHoldsVoid(&h) != tt.want {
			t.Errorf("HoldsVoid(%s) = %v, want %v", tt.hand, got, tt.want)
		}
	}
}

// TestOracle compares the fast functions with the slow ones on hands drawn
// from a fixed seed through the fuzz decoder (go test -fuzz goes further).
func TestOracle(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(10, 108))
	data := make([]byte, 24)
	for i := range n {
		for j := range data {
			data[j] = byte(rng.Uint32())
		}
		h, win, s, r := fuzzHand(data, true)
		if got, want := Score(&h, win, &s, &r), slowScore(&h, win, &s, &r); got != want {
			t.Fatalf("Score(%s %v void %v, %v, %+v) = %+v, want %+v", &h.Concealed, h.Melds, h.Void, win, s, got, want)
		}
		if got, want := Waits(&h), slowWaits(&h); got != want {
			t.Fatalf("Waits(%s %v void %v) = %v, want %v", &h.Concealed, h.Melds, h.Void, got, want)
		}
		if i%4 == 0 { // the slow shanten search is the slowest
			h, _, _, _ = fuzzHand(data, false)
			if got, want := Shanten(&h), slowShanten(&h); got != want {
				t.Fatalf("Shanten(%s %v void %v) = %d, want %d", &h.Concealed, h.Melds, h.Void, got, want)
			}
		}
	}
}

// TestNoAllocs holds the table's questions to their promise: no allocation.
func TestNoAllocs(t *testing.T) {
	h := hand(t, "p 23m55s pon:999m kan:7777s ankan:1111m")
	far := hand(t, "p 3668m569p112269s")
	s := Situation{Tsumo: true, Rinshan: true}
	var sink int
	for name, f := range map[string]func(){
		"Score":     func() { sink += Score(&h, tile.M4, &s, &Default).Value },
		"Shanten":   func() { sink += Shanten(&far) },
		"Waits":     func() { sink += Waits(&h).Len() },
		"Ready":     func() { _ = Ready(&far) },
		"CanWin":    func() { _ = CanWin(&h, tile.M1) },
		"BestValue": func() { sink += BestValue(&h, &Default) },
		"HoldsVoid": func() { _ = HoldsVoid(&far) },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s: %v allocations a call", name, n)
		}
	}
}
