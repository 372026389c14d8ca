package mcr

import (
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ActionCodec encodes MCR actions for the store (store.Codec): seat,
// type, tile, run and a flag byte (1: a wall follows), then for a deal the
// wall's 144 tiles, its seed and its commitment (mahjong.AppendWall). Five
// bytes for a move, 213 for a deal.
type ActionCodec struct{}

const flagWall = 1

// frame is the shape of the encoded actions.
var frame = mahjong.Frame{Size: 5, Flags: flagWall, Wall: flagWall, WallSize: wall.Size144 + 32 + 32}

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a tbl.Action) []byte {
	var flags byte
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Run), flags)
	if w := a.Wall; w != nil {
		dst = mahjong.AppendWall(dst, w.Tiles[:], &w.Seed, &w.Commitment)
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (tbl.Action, error) {
	head, rest, err := frame.Split(b)
	if err != nil {
		return tbl.Action{}, err
	}
	a := tbl.Action{Seat: tbl.Seat(head[0]), Type: tbl.ActionType(head[1]), Tile: tile.Tile(head[2]), Run: tile.Kind(head[3])}
	if rest != nil {
		w := &wall.Wall144{}
		mahjong.ReadWall(rest, w.Tiles[:], &w.Seed, &w.Commitment)
		a.Wall = w
	}
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
