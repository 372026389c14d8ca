package sichuan

import (
	"fmt"

	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ActionCodec encodes the Sichuan engine's actions for a durable store
// (store.Codec): seat, type, tile, the three exchange tiles, the suit and
// a flag byte (1: a wall follows), then for a deal the wall's 108 tiles,
// its 32-byte seed, its 32-byte commitment and its direction. Eight bytes
// for a move, 181 for a deal.
type ActionCodec struct{}

const (
	flagWall = 1 << iota
)

const (
	actionSize = 8
	wallSize   = sc.WallSize + 32 + 32 + 1
)

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a sc.Action) []byte {
	var flags byte
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Tiles[0]), byte(a.Tiles[1]), byte(a.Tiles[2]), byte(a.Suit), flags)
	if w := a.Wall; w != nil {
		for _, t := range w.Tiles {
			dst = append(dst, byte(t))
		}
		dst = append(dst, w.Seed[:]...)
		dst = append(dst, w.Commitment[:]...)
		dst = append(dst, byte(w.Direction))
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (sc.Action, error) {
	if len(b) < actionSize {
		return sc.Action{}, fmt.Errorf("action of %d bytes", len(b))
	}
	a := sc.Action{
		Seat: sc.Seat(b[0]), Type: sc.ActionType(b[1]), Tile: tile.Tile(b[2]),
		Tiles: [3]tile.Tile{tile.Tile(b[3]), tile.Tile(b[4]), tile.Tile(b[5])}, Suit: tile.Suit(b[6]),
	}
	if b[7]&^flagWall != 0 {
		return sc.Action{}, fmt.Errorf("action flags %#x", b[7])
	}
	rest := b[actionSize:]
	if b[7]&flagWall == 0 {
		if len(rest) != 0 {
			return sc.Action{}, fmt.Errorf("%d bytes after an action without a wall", len(rest))
		}
		return a, nil
	}
	if len(rest) != wallSize {
		return sc.Action{}, fmt.Errorf("wall of %d bytes, want %d", len(rest), wallSize)
	}
	w := &sc.Wall{}
	for i := range w.Tiles {
		w.Tiles[i] = tile.Tile(rest[i])
	}
	copy(w.Seed[:], rest[sc.WallSize:])
	copy(w.Commitment[:], rest[sc.WallSize+32:])
	w.Direction = sc.Direction(rest[sc.WallSize+64])
	a.Wall = w
	return a, nil
}

// Codec is what the host needs to snapshot Sichuan tables (host.Codec):
// actions as ActionCodec writes them, event bodies as the engine encodes
// them.
type Codec struct{ ActionCodec }

// AppendBody appends the encoding of b to dst.
func (Codec) AppendBody(dst []byte, b sc.Body) ([]byte, error) { return sc.AppendBody(dst, b) }

// DecodeBody decodes what AppendBody wrote.
func (Codec) DecodeBody(b []byte) (sc.Body, error) { return sc.DecodeBody(b) }
