package mahjong

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The rule sets' action codecs (store.Codec) share a frame: a head of
// fixed size whose last byte holds flags, then for a deal the wall - its
// tiles a byte each, its 32-byte seed and its 32-byte commitment, and
// whatever else the rule set's wall holds.

// AppendWall appends a wall's tiles, seed and commitment to dst.
func AppendWall(dst []byte, tiles []tile.Tile, seed, commitment *[32]byte) []byte {
	for _, t := range tiles {
		dst = append(dst, byte(t))
	}
	dst = append(dst, seed[:]...)
	return append(dst, commitment[:]...)
}

// ReadWall reads what AppendWall wrote of a wall of len(tiles) tiles
// from b, which holds at least that much, and returns the rest.
func ReadWall(b []byte, tiles []tile.Tile, seed, commitment *[32]byte) []byte {
	for i := range tiles {
		tiles[i] = tile.Tile(b[i])
	}
	b = b[len(tiles):]
	copy(seed[:], b)
	copy(commitment[:], b[32:])
	return b[64:]
}

// Frame is the shape of a rule set's encoded actions.
type Frame struct {
	Size     int  // the head's bytes, the flags last
	Flags    byte // every flag the head may hold
	Wall     byte // the flag of an action that a wall follows
	WallSize int  // the bytes of the wall
}

// Split splits an encoded action into its head and the wall after it
// (nil if none), checking the frame: the flags hold no unknown flag, a
// wall follows exactly when they say so, and it is WallSize bytes.
func (f Frame) Split(b []byte) (head, wall []byte, err error) {
	if len(b) < f.Size {
		return nil, nil, fmt.Errorf("action of %d bytes", len(b))
	}
	head, rest := b[:f.Size], b[f.Size:]
	flags := head[f.Size-1]
	if flags&^f.Flags != 0 {
		return nil, nil, fmt.Errorf("action flags %#x", flags)
	}
	if flags&f.Wall == 0 {
		if len(rest) != 0 {
			return nil, nil, fmt.Errorf("%d bytes after an action without a wall", len(rest))
		}
		return head, nil, nil
	}
	if len(rest) != f.WallSize {
		return nil, nil, fmt.Errorf("wall of %d bytes, want %d", len(rest), f.WallSize)
	}
	return head, rest, nil
}
