package sichuan

import (
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// ActionCodec encodes the Sichuan engine's actions for a durable store
// (store.Codec): seat, type, tile, the three exchange tiles, the suit and
// a flag byte (1: a wall follows), then for a deal the wall's 108 tiles,
// its 32-byte seed, its 32-byte commitment (mahjong.AppendWall) and its
// direction. Eight bytes
// for a move, 181 for a deal.
type ActionCodec struct{}

const flagWall = 1

// frame is the shape of the encoded actions.
var frame = mahjong.Frame{Size: 8, Flags: flagWall, Wall: flagWall, WallSize: sc.WallSize + 32 + 32 + 1}

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a sc.Action) []byte {
	var flags byte
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Tiles[0]), byte(a.Tiles[1]), byte(a.Tiles[2]), byte(a.Suit), flags)
	if w := a.Wall; w != nil {
		dst = mahjong.AppendWall(dst, w.Tiles[:], &w.Seed, &w.Commitment)
		dst = append(dst, byte(w.Direction))
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (sc.Action, error) {
	head, rest, err := frame.Split(b)
	if err != nil {
		return sc.Action{}, err
	}
	a := sc.Action{
		Seat: sc.Seat(head[0]), Type: sc.ActionType(head[1]), Tile: tile.Tile(head[2]),
		Tiles: [3]tile.Tile{tile.Tile(head[3]), tile.Tile(head[4]), tile.Tile(head[5])}, Suit: tile.Suit(head[6]),
	}
	if rest != nil {
		w := &sc.Wall{}
		rest = mahjong.ReadWall(rest, w.Tiles[:], &w.Seed, &w.Commitment)
		w.Direction = sc.Direction(rest[0])
		a.Wall = w
	}
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
