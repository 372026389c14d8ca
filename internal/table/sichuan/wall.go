package sichuan

import (
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"sync"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// The wall of a Sichuan hand: the 108 suited tiles in the order they come
// off the wall. There is no dead wall: replacement draws after a kan come
// off the live wall too.
//
// Layout of Wall.Tiles (index = position in dealing order):
//
//	[0, 52)    three passes of four tiles to each seat starting with the
//	           dealer, then one tile to each seat
//	52         the dealer's fourteenth tile
//	[53, 108)  the live wall, drawn in order from 53
const (
	WallSize  = 108
	DealSize  = 53
	LiveStart = 53
	LiveSize  = WallSize - LiveStart
)

// Wall is one hand's tiles in layout order, the seed they were shuffled
// from (zero for a stacked wall), the commitment to that seed the host
// publishes before the deal (zero when it publishes none), and the
// direction of the exchange of three, drawn from the same seed.
type Wall struct {
	Tiles      [WallSize]tile.Tile
	Seed       [32]byte
	Commitment [32]byte
	Direction  Direction
}

// ErrWall is what every error of Wall.Check matches.
var ErrWall = errors.New("sichuan: bad wall")

// DealPos is the position of the n-th tile dealt to the seat `offset` seats
// after the dealer: n in 0..12, and 13 for the dealer's fourteenth.
func DealPos(offset, n int) int {
	switch {
	case n < 12:
		return (n/4)*16 + offset*4 + n%4
	case n == 12:
		return 48 + offset
	}
	return 52
}

// LivePos is the position of the i-th draw (0 is the first draw after the
// deal).
func LivePos(i int) int { return LiveStart + i }

// Set returns the 108 tiles in set order: 1m..9s, four copies each.
func Set() [WallSize]tile.Tile { return set }

var set = func() [WallSize]tile.Tile {
	var s [WallSize]tile.Tile
	for k := range tile.Kind(27) {
		for c := range 4 {
			s[4*int(k)+c] = tile.Plain(k)
		}
	}
	return s
}()

// NewWall returns the wall shuffled from seed, by the riichi wall's method
// (package wall, docs/fairness.md) over the 108-tile set: Fisher-Yates from
// the last position down, each position i swapped with one drawn uniformly
// from [0, i] by wall.Uniform over ChaCha8Rand seeded with the 32 bytes.
// The exchange direction is the next draw of the same generator, uniform
// over the three directions. The same seed gives the same wall forever
// (TestWallGolden).
func NewWall(seed [32]byte) Wall {
	w := Wall{Tiles: set, Seed: seed}
	r := generators.Get().(*mrand.ChaCha8)
	r.Seed(seed)
	for i := WallSize - 1; i > 0; i-- {
		j := wall.Uniform(r.Uint64, uint64(i+1))
		w.Tiles[i], w.Tiles[j] = w.Tiles[j], w.Tiles[i]
	}
	w.Direction = Direction(1 + wall.Uniform(r.Uint64, 3))
	generators.Put(r)
	return w
}

var generators = sync.Pool{New: func() any { return new(mrand.ChaCha8) }}

// Check reports whether w holds exactly the 108 tiles, has a direction,
// and, when it has a seed, whether it is the wall NewWall makes from it.
func (w *Wall) Check() error {
	if w.Seed != ([32]byte{}) {
		if n := NewWall(w.Seed); n.Tiles != w.Tiles || n.Direction != w.Direction {
			return fmt.Errorf("%w: not the shuffle of its seed", ErrWall)
		}
		return nil
	}
	if w.Direction < ToNext || w.Direction > Across {
		return fmt.Errorf("%w: direction %d", ErrWall, w.Direction)
	}
	var c [27]int
	for _, x := range w.Tiles {
		if x.Red() || x.Kind() >= 27 {
			return fmt.Errorf("%w: tile %v", ErrWall, x)
		}
		c[x.Kind()]++
	}
	for k, n := range c {
		if n != 4 {
			return fmt.Errorf("%w: %d of %v", ErrWall, n, tile.Kind(k))
		}
	}
	return nil
}

// Stack builds a wall from known tiles at known positions, filling the
// rest in set order: for scenario scripts and replays.
type Stack struct {
	tiles [WallSize]tile.Tile
	set   [WallSize]bool
}

// Put places x at pos.
func (s *Stack) Put(pos int, x tile.Tile) error {
	switch {
	case pos < 0 || pos >= WallSize:
		return fmt.Errorf("%w: position %d", ErrWall, pos)
	case s.set[pos]:
		return fmt.Errorf("%w: position %d set twice", ErrWall, pos)
	case x.Red() || x.Kind() >= 27:
		return fmt.Errorf("%w: tile %v", ErrWall, x)
	}
	s.tiles[pos], s.set[pos] = x, true
	return nil
}

// Wall returns the stacked wall with direction d: the positions not put
// are filled, in order, with the tiles of the set not yet placed.
func (s *Stack) Wall(d Direction) (Wall, error) {
	var left [27]int
	for k := range left {
		left[k] = 4
	}
	for pos, ok := range s.set {
		if ok {
			k := s.tiles[pos].Kind()
			if left[k] == 0 {
				return Wall{}, fmt.Errorf("%w: more than four %v", ErrWall, k)
			}
			left[k]--
		}
	}
	w := Wall{Direction: d}
	k := 0
	for pos := range w.Tiles {
		if s.set[pos] {
			w.Tiles[pos] = s.tiles[pos]
			continue
		}
		for left[k] == 0 {
			k++
		}
		left[k]--
		w.Tiles[pos] = tile.Plain(tile.Kind(k))
	}
	return w, w.Check()
}
