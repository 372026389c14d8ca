package riichi

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ActionCodec encodes the riichi table's actions for a durable store
// (store.Codec): seat, type, tile, the two tiles and a flag byte (1:
// tsumogiri, 2: a wall follows), then for a deal the wall's 136 tiles, its
// 32-byte seed and its 32-byte commitment. Six bytes for a move, 206 for a
// deal.
type ActionCodec struct{}

const (
	flagTsumogiri = 1 << iota
	flagWall
)

const (
	actionSize = 6
	wallSize   = wall.Size + 32 + 32
)

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
func (ActionCodec) DecodeAction(b []byte) (table.Action, error) {
	if len(b) < actionSize {
		return table.Action{}, fmt.Errorf("action of %d bytes", len(b))
	}
	a := table.Action{
		Seat: table.Seat(b[0]), Type: table.ActionType(b[1]), Tile: tile.Tile(b[2]),
		Tiles: [2]tile.Tile{tile.Tile(b[3]), tile.Tile(b[4])}, Tsumogiri: b[5]&flagTsumogiri != 0,
	}
	if b[5]&^(flagTsumogiri|flagWall) != 0 {
		return table.Action{}, fmt.Errorf("action flags %#x", b[5])
	}
	rest := b[actionSize:]
	if b[5]&flagWall == 0 {
		if len(rest) != 0 {
			return table.Action{}, fmt.Errorf("%d bytes after an action without a wall", len(rest))
		}
		return a, nil
	}
	if len(rest) != wallSize {
		return table.Action{}, fmt.Errorf("wall of %d bytes, want %d", len(rest), wallSize)
	}
	w := &wall.Wall{}
	for i := range w.Tiles {
		w.Tiles[i] = tile.Tile(rest[i])
	}
	copy(w.Seed[:], rest[wall.Size:])
	copy(w.Commitment[:], rest[wall.Size+32:])
	a.Wall = w
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
