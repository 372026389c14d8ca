package classical

import (
	"fmt"

	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ActionCodec encodes the classical engine's actions for a durable store
// (store.Codec): seat, type, tile and a flag byte (1: a wall follows),
// then for a deal the wall's 144 tiles, its 32-byte seed and its 32-byte
// commitment. Four bytes for a move, 212 for a deal.
type ActionCodec struct{}

const flagWall = 1

const (
	actionSize = 4
	wallSize   = wall.Size144 + 32 + 32
)

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a ct.Action) []byte {
	var flags byte
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), flags)
	if w := a.Wall; w != nil {
		for _, t := range w.Tiles {
			dst = append(dst, byte(t))
		}
		dst = append(dst, w.Seed[:]...)
		dst = append(dst, w.Commitment[:]...)
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (ct.Action, error) {
	if len(b) < actionSize {
		return ct.Action{}, fmt.Errorf("action of %d bytes", len(b))
	}
	a := ct.Action{Seat: ct.Seat(b[0]), Type: ct.ActionType(b[1]), Tile: tile.Tile(b[2])}
	if b[3]&^flagWall != 0 {
		return ct.Action{}, fmt.Errorf("action flags %#x", b[3])
	}
	rest := b[actionSize:]
	if b[3]&flagWall == 0 {
		if len(rest) != 0 {
			return ct.Action{}, fmt.Errorf("%d bytes after an action without a wall", len(rest))
		}
		return a, nil
	}
	if len(rest) != wallSize {
		return ct.Action{}, fmt.Errorf("wall of %d bytes, want %d", len(rest), wallSize)
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

// Codec is what the host needs to snapshot classical tables (host.Codec):
// actions as ActionCodec writes them, event bodies as the engine encodes
// them.
type Codec struct{ ActionCodec }

// AppendBody appends the encoding of b to dst.
func (Codec) AppendBody(dst []byte, b ct.Body) ([]byte, error) { return ct.AppendBody(dst, b) }

// DecodeBody decodes what AppendBody wrote.
func (Codec) DecodeBody(b []byte) (ct.Body, error) { return ct.DecodeBody(b) }
