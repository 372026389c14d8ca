package wall

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The walls of the other rule sets: the same seeds, commitments and
// shuffle as riichi's (New), over another set, with their own layout.
//
// A 108-tile wall (Sichuan: the three suits only, no dead wall):
//
//	[0, 52)    the deal, as riichi's (DealPos)
//	[52, 108)  the live wall, drawn in order from 52 (the dealer's 14th
//	           tile is the first draw); a kan's replacement is the next
//	           tile of the live wall like any draw
//
// A 144-tile wall (Chinese Official and classical: 136 and eight flowers,
// no dead wall):
//
//	[0, 52)    the deal, as riichi's
//	[52, 144)  the live wall, drawn from 52 on; every replacement, for a
//	           flower or a kan, is drawn from the other end, 143 down
const (
	Size108 = 108
	Size144 = 144
)

// Wall108 is one round's 108 tiles in layout order, with its seed and
// commitment (as Wall's).
type Wall108 struct {
	Tiles      [Size108]tile.Tile
	Seed       [32]byte
	Commitment [32]byte
}

// Wall144 is one round's 144 tiles in layout order, with its seed and
// commitment (as Wall's).
type Wall144 struct {
	Tiles      [Size144]tile.Tile
	Seed       [32]byte
	Commitment [32]byte
}

// Set108 returns the 108 tiles of the three suits in set order: kinds 1m..9s,
// four copies each (position 4k + c holds copy c of kind k); no red fives.
func Set108() [Size108]tile.Tile { return set108 }

// Set144 returns the 144 tiles of a set with flowers in set order: the 136
// of riichi's plain set (Set(false)), then the eight flowers and seasons
// 1f..8f, one each.
func Set144() [Size144]tile.Tile { return set144 }

var (
	set108 = makeSet108()
	set144 = makeSet144()
)

func makeSet108() [Size108]tile.Tile {
	var s [Size108]tile.Tile
	copy(s[:], sets[0][:Size108]) // the suits come first in riichi's set order
	return s
}

func makeSet144() [Size144]tile.Tile {
	var s [Size144]tile.Tile
	copy(s[:], sets[0][:])
	for i := range 8 {
		s[Size+i] = tile.Plain(tile.Kind(tile.NumKinds + i))
	}
	return s
}

// New108 returns the 108-tile wall shuffled from seed, exactly as New
// shuffles riichi's: Fisher-Yates from position 107 down with ChaCha8Rand
// of the seed and Uniform.
func New108(seed [32]byte) Wall108 {
	w := Wall108{Tiles: set108, Seed: seed}
	shuffle(w.Tiles[:], seed)
	return w
}

// New144 returns the 144-tile wall shuffled from seed, as New108 (from
// position 143 down).
func New144(seed [32]byte) Wall144 {
	w := Wall144{Tiles: set144, Seed: seed}
	shuffle(w.Tiles[:], seed)
	return w
}

// Back144Pos is the position of the i-th replacement draw (flower or kan)
// of a 144-tile wall, from the far end.
func Back144Pos(i int) int { return Size144 - 1 - i }

// Check reports whether w holds exactly the 108 tiles, and when w has a
// seed, whether it is the wall New108 makes from it.
func (w *Wall108) Check() error {
	if w.Seed != ([32]byte{}) {
		if New108(w.Seed).Tiles != w.Tiles {
			return fmt.Errorf("%w: tiles are not the shuffle of the wall's seed", ErrNotSet)
		}
		return nil
	}
	return checkCounts(w.Tiles[:], set108[:])
}

// Check reports whether w holds exactly the 144 tiles, and when w has a
// seed, whether it is the wall New144 makes from it.
func (w *Wall144) Check() error {
	if w.Seed != ([32]byte{}) {
		if New144(w.Seed).Tiles != w.Tiles {
			return fmt.Errorf("%w: tiles are not the shuffle of the wall's seed", ErrNotSet)
		}
		return nil
	}
	return checkCounts(w.Tiles[:], set144[:])
}

// checkCounts reports whether ts holds the tiles of set, each as often.
func checkCounts(ts, set []tile.Tile) error {
	var have, want [256]int
	for i := range ts {
		have[ts[i]]++
		want[set[i]]++
	}
	if have != want {
		return fmt.Errorf("%w: tiles are not the %d-tile set", ErrNotSet, len(set))
	}
	return nil
}
