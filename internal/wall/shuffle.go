package wall

import (
	"fmt"
	"math/bits"
	mrand "math/rand/v2"
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
)

// Set returns the 136 tiles of a riichi set in set order: kinds 1m..7z, four
// copies each. With aka, the first copy of 5m, 5p and 5s is the red five.
// Set order is what Shuffle permutes and what stacked walls fill unknown
// positions from.
func Set(aka bool) [Size]tile.Tile {
	if aka {
		return sets[1]
	}
	return sets[0]
}

// sets are the two sets, plain and with red fives, made once: every wall
// starts from one.
var sets = [2][Size]tile.Tile{makeSet(false), makeSet(true)}

// setFaces are the sets' tile counts, for Check.
var setFaces = [2]faces{countsOf(&sets[0]), countsOf(&sets[1])}

func makeSet(aka bool) [Size]tile.Tile {
	var s [Size]tile.Tile
	for k := range tile.NumKinds {
		for c := range 4 {
			t := tile.Plain(tile.Kind(k))
			if aka && c == 0 && t.Kind().HasRed() {
				t = tile.RedOf(t.Kind())
			}
			s[4*k+c] = t
		}
	}
	return s
}

// New returns the wall shuffled from seed: the set (see Set) permuted by
// Fisher-Yates from the last position down, drawing from ChaCha8Rand
// seeded with the 32 bytes (https://c2sp.org/chacha8rand; Go's
// math/rand/v2 ChaCha8 implements it and pins it to the specification's
// test vector, and TestChaCha8Vector pins it here too). For i from 135 down
// to 1 it swaps position i with a position j drawn uniformly from [0, i] by
// Uniform. Nothing else of the generator is used, so the wall is fully
// specified by docs/fairness.md; the same seed gives the same wall forever
// (TestShuffleGolden).
func New(seed [32]byte, aka bool) Wall {
	w := Wall{Tiles: Set(aka), Seed: seed}
	shuffle(w.Tiles[:], seed)
	return w
}

// shuffle permutes ts by Fisher-Yates from the last position down,
// drawing from ChaCha8Rand seeded with seed (see New): the shuffle of
// every wall, whatever its size.
func shuffle(ts []tile.Tile, seed [32]byte) {
	// The generator's state does not fit the stack (it escapes), so
	// generators are reused rather than allocated for every wall.
	r := generators.Get().(*mrand.ChaCha8)
	r.Seed(seed)
	for i := len(ts) - 1; i > 0; i-- {
		j := Uniform(r.Uint64, uint64(i+1))
		ts[i], ts[j] = ts[j], ts[i]
	}
	generators.Put(r)
}

var generators = sync.Pool{New: func() any { return new(mrand.ChaCha8) }}

// Uniform returns a number in [0, n) without bias, from 64-bit outputs of
// next, by Lemire's multiply-and-reject method: take x = next(), form the
// 128-bit product x*n, and return its high 64 bits unless its low 64 bits
// are below 2^64 mod n, in which case draw again. n must be positive.
// Each draw that is rejected consumes one more output.
func Uniform(next func() uint64, n uint64) uint64 {
	hi, lo := bits.Mul64(next(), n)
	// 2^64 mod n is below n: the division that computes it is needed
	// only when the low word is below n, which is rare.
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(next(), n)
		}
	}
	return hi
}

// Check reports whether w holds exactly the tiles of the set for aka, each
// once, and, when w has a seed, whether it is the wall New makes from it.
func (w *Wall) Check(aka bool) error {
	// New's walls are the set's tiles: a wall equal to the shuffle of its
	// seed needs no count.
	if w.Seed != ([32]byte{}) && New(w.Seed, aka).Tiles == w.Tiles {
		return nil
	}
	if countsOf(&w.Tiles) != setCounts(aka) {
		return fmt.Errorf("%w: tiles are not the %s set", ErrNotSet, setName(aka))
	}
	if w.Seed != ([32]byte{}) {
		return fmt.Errorf("%w: tiles are not the shuffle of the wall's seed", ErrNotSet)
	}
	return nil
}

func setName(aka bool) string {
	if aka {
		return "red-five"
	}
	return "plain"
}

// faces counts tiles by face: 34 kinds plus the three red fives.
type faces [tile.NumKinds + 3]uint8

func faceIndex(t tile.Tile) int {
	if t.Red() {
		return tile.NumKinds + int(t.Kind()/9)
	}
	return int(t.Kind())
}

func countsOf(ts *[Size]tile.Tile) faces {
	var f faces
	for _, t := range ts {
		if t.Valid() && t.Kind() < tile.NumKinds {
			f[faceIndex(t)]++
		}
	}
	return f
}

func setCounts(aka bool) faces {
	if aka {
		return setFaces[1]
	}
	return setFaces[0]
}
