package wall

import (
	"errors"
	"math/bits"
	mrand "math/rand/v2"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// TestShuffleGolden pins the shuffle: a seed must give the same wall
// forever, so that recorded seeds replay. If this test fails, the PRNG or
// the Fisher-Yates changed, and every stored seed is broken.
func TestShuffleGolden(t *testing.T) {
	var counting [32]byte
	for i := range counting {
		counting[i] = byte(i)
	}
	tests := []struct {
		seed [32]byte
		aka  bool
		want string
	}{
		{counting, true, "7z2m5z1m9s6z98s0p2589m4z8p8m9p7s4p7z1p1m32p9m1z1m76z5m8s4m2p79s4p5s7m1s1m3s6m5011s2m9p4s663p83m56z8p2m4z9p3s7p32z4s7z3m92s2p6s3p31s8m5z3m8s54z15p4s42z9m9p4s63z1p3z4p1z51p3m2z7m7p57s4p5m7p6s49m6p6m113z7s5p2z6s4m28p0m86p7m22s3p82s647m7p6m36s"},
		{[32]byte{}, false, "9m41z4m1p9m6s9p7z3m54z6m9s2p9s4z2682731s64p5m1p4z3m85s7m77p5m9p7m5z8p16z32s21z2m2p7z1s6z4p2m4s6z4m3z5p758m84s83p657219s2p4s1m6p46m6s92m7p3z31p1m95s5p6m8s5p88m2z3m2z7s3z7s48m4p1z8p1m3z6m7z8p3s57z2361p2m9p4s7m6z4p1m9p13s5p3m2z9m3p5z7p5m6p5s"},
	}
	for _, tt := range tests {
		w := New(tt.seed, tt.aka)
		if got := tile.FormatInOrder(w.Tiles[:]); got != tt.want {
			t.Errorf("New(%x, %v) = %s, want %s", tt.seed[:4], tt.aka, got, tt.want)
		}
		if w.Seed != tt.seed {
			t.Errorf("New(%x).Seed = %x", tt.seed[:4], w.Seed[:4])
		}
		if err := w.Check(tt.aka); err != nil {
			t.Errorf("New(%x).Check() = %v, want nil", tt.seed[:4], err)
		}
	}
}

func TestSet(t *testing.T) {
	for _, aka := range []bool{false, true} {
		s := Set(aka)
		reds := 0
		var c tile.Counts
		for _, x := range s {
			c[x.Kind()]++
			if x.Red() {
				reds++
			}
		}
		for k, n := range c {
			if n != 4 {
				t.Errorf("Set(%v) has %d of %v, want 4", aka, n, tile.Kind(k))
			}
		}
		if want := map[bool]int{false: 0, true: 3}[aka]; reds != want {
			t.Errorf("Set(%v) has %d red fives, want %d", aka, reds, want)
		}
	}
}

func TestShuffleUniformish(t *testing.T) {
	// Every position must be able to hold every tile: a broken shuffle
	// (an off-by-one in the bound) leaves the last tile of the set at the
	// front, or never moves a tile. 2000 walls make each of the 34 kinds
	// appear at position 0 about 59 times.
	var first [tile.NumKinds]int
	for i := range 2000 {
		var seed [32]byte
		seed[0], seed[1] = byte(i), byte(i>>8)
		w := New(seed, true)
		first[w.Tiles[0].Kind()]++
	}
	for k, n := range first {
		if n < 20 || n > 110 {
			t.Errorf("kind %v first in %d of 2000 walls, want about 59", tile.Kind(k), n)
		}
	}
}

func TestCheck(t *testing.T) {
	w := New([32]byte{1}, true)
	if err := w.Check(false); !errors.Is(err, ErrNotSet) {
		t.Errorf("aka wall Check(false) = %v, want ErrNotSet", err)
	}
	w.Tiles[0], w.Tiles[1] = w.Tiles[1], w.Tiles[0]
	if w.Tiles[0] != w.Tiles[1] {
		if err := w.Check(true); !errors.Is(err, ErrNotSet) {
			t.Errorf("Check of a wall that is not its seed's shuffle = %v, want ErrNotSet", err)
		}
	}
	w.Seed = [32]byte{}
	if err := w.Check(true); err != nil {
		t.Errorf("Check of a seedless full set = %v, want nil", err)
	}
	w.Tiles[0] = w.Tiles[1]
	if err := w.Check(true); !errors.Is(err, ErrNotSet) {
		t.Errorf("Check with a duplicated tile = %v, want ErrNotSet", err)
	}
}

func TestLayout(t *testing.T) {
	seen := map[int]bool{}
	mark := func(what string, p int) {
		if p < 0 || p >= Size || seen[p] {
			t.Errorf("%s: position %d out of range or used twice", what, p)
		}
		seen[p] = true
	}
	for off := range 4 {
		for n := range 13 {
			mark("deal", DealPos(off, n))
		}
	}
	for i := range LiveSize(0) {
		mark("live", LivePos(i))
	}
	for i := range MaxKans {
		mark("rinshan", RinshanPos(i))
	}
	for i := range MaxDora {
		mark("dora", DoraPos(i))
		mark("ura", UraPos(i))
	}
	if len(seen) != Size {
		t.Errorf("layout covers %d positions, want %d", len(seen), Size)
	}
	if got := DealPos(0, 4); got != 16 {
		t.Errorf("DealPos(0, 4) = %d, want 16 (second pass)", got)
	}
	if got := LiveSize(2); got != 68 {
		t.Errorf("LiveSize(2) = %d, want 68", got)
	}
}

func TestStacked(t *testing.T) {
	sc := Script{
		Hands: [4][]tile.Tile{
			tile.MustParse("1112345678999m"),
			tile.MustParse("1234567890p123s"),
		},
		Draws:   tile.MustParse("5m0m"),
		Rinshan: tile.MustParse("7z"),
		Dora:    tile.MustParse("1z2z"),
		Ura:     tile.MustParse("3z"),
	}
	w, err := Stacked(&sc, true)
	if err != nil {
		t.Fatalf("Stacked() error %v", err)
	}
	if err := w.Check(true); err != nil {
		t.Errorf("stacked wall Check() = %v", err)
	}
	for off, h := range sc.Hands {
		for i, want := range h {
			if got := w.Tiles[DealPos(off, i)]; got != want {
				t.Errorf("hand %d tile %d = %v, want %v", off, i, got, want)
			}
		}
	}
	checks := []struct {
		pos  int
		want string
	}{
		{LivePos(0), "5m"}, {LivePos(1), "0m"}, {RinshanPos(0), "7z"},
		{DoraPos(0), "1z"}, {DoraPos(1), "2z"}, {UraPos(0), "3z"},
	}
	for _, c := range checks {
		if got := w.Tiles[c.pos].String(); got != c.want {
			t.Errorf("Tiles[%d] = %s, want %s", c.pos, got, c.want)
		}
	}
	// Unknown positions are filled in position order with what the set
	// has left, in set order: hand 0 holds three 1m, so the first unknown
	// position, the first tile dealt to offset 2, gets the last 1m and the
	// second one a 2m.
	if got, want := w.Tiles[DealPos(2, 0)].String(), "1m"; got != want {
		t.Errorf("first filled position = %s, want %s", got, want)
	}
	if got, want := w.Tiles[DealPos(2, 1)].String(), "2m"; got != want {
		t.Errorf("second filled position = %s, want %s", got, want)
	}
}

func TestStackErrors(t *testing.T) {
	tests := []struct {
		name string
		sc   Script
		want error
	}{
		{"five 1m", Script{Hands: [4][]tile.Tile{tile.MustParse("11111m")}}, ErrTooMany},
		{"two red 5m", Script{Hands: [4][]tile.Tile{tile.MustParse("0m"), tile.MustParse("0m")}}, ErrTooMany},
		{"long hand", Script{Hands: [4][]tile.Tile{tile.MustParse("12345678912345m")}}, ErrTooLong},
		{"six dora", Script{Dora: tile.MustParse("123456z")}, ErrTooLong},
		{"flower", Script{Draws: tile.MustParse("1f")}, ErrNotSet},
	}
	for _, tt := range tests {
		_, err := Stacked(&tt.sc, true)
		if !errors.Is(err, tt.want) {
			t.Errorf("Stacked(%s) error = %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := Stacked(&Script{Draws: tile.MustParse("0s")}, false); !errors.Is(err, ErrTooMany) {
		t.Errorf("red five without aka: error = %v, want ErrTooMany", err)
	}
	var s Stack
	if err := s.Put(3, tile.Plain(tile.M1)); err != nil {
		t.Fatal(err)
	}
	if err := s.Put(3, tile.Plain(tile.M2)); !errors.Is(err, ErrPlaced) {
		t.Errorf("Put twice at 3: error = %v, want ErrPlaced", err)
	}
	if err := s.Put(Size, tile.Plain(tile.M2)); !errors.Is(err, ErrPosition) {
		t.Errorf("Put(Size): error = %v, want ErrPosition", err)
	}
}

// Uniform skips the division of Lemire's method when the low word is at
// least n; the draws must stay exactly those of the plain method.
func TestUniformPlain(t *testing.T) {
	plain := func(next func() uint64, n uint64) uint64 {
		threshold := -n % n
		for {
			hi, lo := bits.Mul64(next(), n)
			if lo >= threshold {
				return hi
			}
		}
	}
	var seed [32]byte
	a, b := mrand.NewChaCha8(seed), mrand.NewChaCha8(seed)
	// Large n make rejections likely, so both branches are exercised.
	for _, n := range []uint64{1, 2, 3, 136, 1<<63 + 1, 1<<64 - 3, 3 << 62} {
		for range 1000 {
			if x, y := Uniform(a.Uint64, n), plain(b.Uint64, n); x != y {
				t.Fatalf("Uniform(n=%d) = %d, want %d", n, x, y)
			}
		}
	}
}

// TestChaCha8Vector pins the generator under the shuffle to the test vector
// of the ChaCha8Rand specification (https://c2sp.org/chacha8rand), the same
// one Go's own tests use: if Go's ChaCha8 ever drifted from the
// specification, walls recomputed by other verifiers would differ.
func TestChaCha8Vector(t *testing.T) {
	seed := [32]byte([]byte("ABCDEFGHIJKLMNOPQRSTUVWXYZ123456"))
	want := []uint64{
		0xb773b6063d4616a5, 0x1160af22a66abc3c, 0x8c2599d9418d287c, 0x7ee07e037edc5cd6,
		0xcfaa9ee02d1c16ad, 0x0e090eef8febea79, 0x3c82d271128b5b3e, 0x9c5addc11252a34f,
	}
	r := mrand.NewChaCha8(seed)
	for i, w := range want {
		if got := r.Uint64(); got != w {
			t.Fatalf("ChaCha8(%q) output %d = %#x, want %#x", seed, i, got, w)
		}
	}
}

func TestUniform(t *testing.T) {
	seq := func(xs ...uint64) func() uint64 {
		return func() uint64 { x := xs[0]; xs = xs[1:]; return x }
	}
	tests := []struct {
		name string
		xs   []uint64
		n    uint64
		want uint64
	}{
		{"zero maps to zero (n a power of two rejects nothing)", []uint64{0}, 8, 0},
		{"top maps to n-1", []uint64{^uint64(0)}, 10, 9},
		{"just over half maps to n/2", []uint64{1<<63 + 1}, 136, 68},
		// 2^64 mod 136 = 120: 2^63 * 136 has low word 0 < 120, rejected.
		{"exactly half is rejected", []uint64{1 << 63, 0xffff_ffff_ffff_fff0}, 136, 135},
		// 2^64 mod 3 = 1: x = 0 gives lo = 0 < 1, rejected; the next
		// output decides.
		{"rejection draws again", []uint64{0, ^uint64(0)}, 3, 2},
		{"n = 1", []uint64{12345}, 1, 0},
	}
	for _, tt := range tests {
		if got := Uniform(seq(tt.xs...), tt.n); got != tt.want {
			t.Errorf("Uniform(%s: %x, %d) = %d, want %d", tt.name, tt.xs, tt.n, got, tt.want)
		}
	}
}
