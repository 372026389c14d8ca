package riichi

import (
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ActionCodec encodes the riichi table's actions for a durable store
// (store.Codec): seat, type, tile, the two tiles and a flag byte (1:
// tsumogiri, 2: a wall follows), then for a deal the wall's 136 tiles, its
// 32-byte seed and its 32-byte commitment (mahjong.AppendWall). Six bytes for a move, 206 for a
// deal.
type ActionCodec struct{}

const (
	flagTsumogiri = 1 << iota
	flagWall
)

// frame is the shape of the encoded actions.
var frame = mahjong.Frame{Size: 6, Flags: flagTsumogiri | flagWall, Wall: flagWall, WallSize: wall.Size + 32 + 32}

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a table.Action) []byte {
	var flags byte
	if a.Tsumogiri {
		flags |= flagTsumogiri
	}
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Tiles[0]), byte(a.Tiles[1]), flags)
	if w := a.Wall; w != nil {
		dst = mahjong.AppendWall(dst, w.Tiles[:], &w.Seed, &w.Commitment)
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (table.Action, error) {
	head, rest, err := frame.Split(b)
	if err != nil {
		return table.Action{}, err
	}
	a := table.Action{
		Seat: table.Seat(head[0]), Type: table.ActionType(head[1]), Tile: tile.Tile(head[2]),
		Tiles: [2]tile.Tile{tile.Tile(head[3]), tile.Tile(head[4])}, Tsumogiri: head[5]&flagTsumogiri != 0,
	}
	if rest != nil {
		w := &wall.Wall{}
		mahjong.ReadWall(rest, w.Tiles[:], &w.Seed, &w.Commitment)
		a.Wall = w
	}
	return a, nil
}

// Codec is what the host needs to snapshot riichi tables (host.Codec): the
// actions of the dedupe window as ActionCodec writes them, and event
// bodies as package table encodes them.
type Codec struct{ ActionCodec }

// AppendBody appends the encoding of b to dst.
func (Codec) AppendBody(dst []byte, b table.Body) ([]byte, error) { return table.AppendBody(dst, b) }

// DecodeBody decodes what AppendBody wrote.
func (Codec) DecodeBody(b []byte) (table.Body, error) { return table.DecodeBody(b) }
