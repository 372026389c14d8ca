package wall

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

func TestSets108And144(t *testing.T) {
	s108, s144 := Set108(), Set144()
	var c108, c144 [tile.NumAllKinds]int
	for _, x := range s108 {
		if x.Red() || x.Kind().IsHonor() || x.Kind().IsFlower() {
			t.Fatalf("108-tile set holds %v", x)
		}
		c108[x.Kind()]++
	}
	for _, x := range s144 {
		if x.Red() {
			t.Fatalf("144-tile set holds %v", x)
		}
		c144[x.Kind()]++
	}
	for k := range tile.NumAllKinds {
		want108, want144 := 0, 4
		if k < 27 {
			want108 = 4
		}
		if tile.Kind(k).IsFlower() {
			want144 = 1
		}
		if c108[k] != want108 || c144[k] != want144 {
			t.Errorf("%v: %d in the 108 set, %d in the 144 set; want %d, %d", tile.Kind(k), c108[k], c144[k], want108, want144)
		}
	}
}

// TestShuffle108And144Golden pins the start of the 108- and 144-tile walls
// of one seed, as docs/verify_wall.py computes them (the document's vector
// states whole walls of its round seed): they must never change.
func TestShuffle108And144Golden(t *testing.T) {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	for _, tc := range []struct {
		name  string
		tiles []tile.Tile
		want  string
	}{
		{"108", func() []tile.Tile { w := New108(seed); return w.Tiles[:] }(), "4m8s5p5p8s6s6s1m7s5p"},
		{"144", func() []tile.Tile { w := New144(seed); return w.Tiles[:] }(), "6s3z7p2s7m4z2m1s7z7s"},
	} {
		got := ""
		for _, x := range tc.tiles[:10] {
			got += x.String()
		}
		if got != tc.want {
			t.Errorf("%s-tile wall of seed %s starts %s, want %s", tc.name, hex.EncodeToString(seed[:]), got, tc.want)
		}
	}
}

func TestCheck108And144(t *testing.T) {
	var seed [32]byte
	seed[0] = 7
	w108, w144 := New108(seed), New144(seed)
	if err := w108.Check(); err != nil {
		t.Fatalf("New108: %v", err)
	}
	if err := w144.Check(); err != nil {
		t.Fatalf("New144: %v", err)
	}
	if w108.Tiles == Set108() || w144.Tiles == Set144() {
		t.Fatal("a shuffled wall is in set order")
	}
	// A permutation without a seed is a set; with the seed it must be
	// the seed's shuffle.
	i := 1
	for w108.Tiles[i] == w108.Tiles[0] {
		i++
	}
	w108.Tiles[0], w108.Tiles[i] = w108.Tiles[i], w108.Tiles[0]
	if err := w108.Check(); !errors.Is(err, ErrNotSet) {
		t.Fatalf("swapped 108-tile wall with its seed: %v, want ErrNotSet", err)
	}
	w108.Seed = [32]byte{}
	if err := w108.Check(); err != nil {
		t.Fatalf("unseeded permutation of the set: %v", err)
	}
	w144.Seed = [32]byte{}
	w144.Tiles[0] = tile.Plain(tile.East)
	w144.Tiles[1] = tile.Plain(tile.East)
	if err := w144.Check(); !errors.Is(err, ErrNotSet) {
		t.Fatalf("144-tile wall with a tile too many: %v, want ErrNotSet", err)
	}
}

func TestBackPos(t *testing.T) {
	if Back144Pos(0) != 143 || Back144Pos(7) != 136 {
		t.Fatal("replacements are not drawn from the back")
	}
}

func TestNew108And144DoNotAllocate(t *testing.T) {
	var seed [32]byte
	New108(seed) // warm the generator pool
	if n := testing.AllocsPerRun(100, func() { New108(seed); New144(seed) }); n != 0 {
		t.Fatalf("%v allocations per pair of walls, want 0", n)
	}
}
