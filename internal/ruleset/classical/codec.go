package classical

import (
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// ActionCodec encodes the classical engine's actions for a durable store
// (store.Codec): seat, type, tile and a flag byte (1: a wall follows),
// then for a deal the wall's 144 tiles, its 32-byte seed and its 32-byte
// commitment (mahjong.AppendWall). Four bytes for a move, 212 for a deal.
type ActionCodec struct{}

const flagWall = 1

// frame is the shape of the encoded actions.
var frame = mahjong.Frame{Size: 4, Flags: flagWall, Wall: flagWall, WallSize: wall.Size144 + 32 + 32}

// AppendAction appends the encoding of a to dst.
func (ActionCodec) AppendAction(dst []byte, a ct.Action) []byte {
	var flags byte
	if a.Wall != nil {
		flags |= flagWall
	}
	dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), flags)
	if w := a.Wall; w != nil {
		dst = mahjong.AppendWall(dst, w.Tiles[:], &w.Seed, &w.Commitment)
	}
	return dst
}

// DecodeAction decodes what AppendAction wrote.
func (ActionCodec) DecodeAction(b []byte) (ct.Action, error) {
	head, rest, err := frame.Split(b)
	if err != nil {
		return ct.Action{}, err
	}
	a := ct.Action{Seat: ct.Seat(head[0]), Type: ct.ActionType(head[1]), Tile: tile.Tile(head[2])}
	if rest != nil {
		w := &wall.Wall144{}
		mahjong.ReadWall(rest, w.Tiles[:], &w.Seed, &w.Commitment)
		a.Wall = w
	}
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
