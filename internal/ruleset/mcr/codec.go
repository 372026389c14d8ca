package mcr

import (
	"fmt"

	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ActionCodec encodes MCR actions for the store (store.Codec): seat,
// type, tile, run and a flag byte (1: a wall follows), then for a deal the
// wall's 144 tiles, its seed and its commitment. Five bytes for a move,
// 213 for a deal.
type ActionCodec struct{}

const (
	flagWall   = 1
	actionSize = 5
	wallSize   = wall.Size144 + 32 + 32
)

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a tbl.Action) []byte {
	var flags byte
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Run), flags)
	if a.Wall != nil {
		for _, t := range a.Wall.Tiles {
			dst = append(dst, byte(t))
		}
		dst = append(dst, a.Wall.Seed[:]...)
		dst = append(dst, a.Wall.Commitment[:]...)
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (tbl.Action, error) {
	if len(b) < actionSize {
		return tbl.Action{}, fmt.Errorf("action of %d bytes", len(b))
	}
	a := tbl.Action{Seat: tbl.Seat(b[0]), Type: tbl.ActionType(b[1]), Tile: tile.Tile(b[2]), Run: tile.Kind(b[3])}
	if b[4]&^flagWall != 0 {
		return tbl.Action{}, fmt.Errorf("action flags %#x", b[4])
	}
	rest := b[actionSize:]
	if b[4]&flagWall == 0 {
		if len(rest) != 0 {
			return tbl.Action{}, fmt.Errorf("%d bytes after an action without a wall", len(rest))
		}
		return a, nil
	}
	if len(rest) != wallSize {
		return tbl.Action{}, fmt.Errorf("wall of %d bytes, want %d", len(rest), wallSize)
	}
	w := &wall.Wall144{}
	for i := range w.Tiles {
		w.Tiles[i] = tile.Tile(rest[i])
	}
	copy(w.Seed[:], rest[wall.Size144:])
	copy(w.Commitment[:], rest[wall.Size144+32:])
	a.Wall = w
	return a, nil
}

// Codec is what the host needs to snapshot MCR tables (host.Codec): the
// actions as ActionCodec writes them, event bodies as package table/mcr
// encodes them.
type Codec struct{ ActionCodec }

// AppendBody appends the encoding of b to dst.
func (Codec) AppendBody(dst []byte, b tbl.Body) ([]byte, error) { return tbl.AppendBody(dst, b) }

// DecodeBody decodes what AppendBody wrote.
func (Codec) DecodeBody(b []byte) (tbl.Body, error) { return tbl.DecodeBody(b) }
