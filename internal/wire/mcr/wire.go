// Package mcr is the wire form of the Chinese Official (MCR) engine's
// types (package table/mcr): its actions, melds, views and event bodies to
// and from the protobuf messages of the API, where tiles are MPSZ strings
// and flowers are 1f..8f. What riichi's messages can say is said with
// them (Dealt, Drew, Discarded, ClaimOffer, TurnOffer, Called,
// RoundEnded); the rest has messages of its own (McrHandStarted,
// McrFlowerSetAside, McrWon, McrGameEnded, View.mcr, Action.run).
//
// Like package wire, both ends speak it: the server encodes what its
// tables produce and decodes clients' actions, the Go client decodes what
// the server sends. Decoding checks everything it reads and never panics:
// a bad tile wraps wire.ErrBadTile, anything else wire.ErrMalformed.
package mcr

import (
	"errors"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wire"
)

// The errors of decoding, package wire's.
var (
	ErrBadTile   = wire.ErrBadTile
	ErrMalformed = wire.ErrMalformed
)

func tileError(field, s string, err error) error {
	return fmt.Errorf("%s %q: %w: %w", field, s, ErrBadTile, err)
}

func malformed(field, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", field, fmt.Sprintf(format, args...), ErrMalformed)
}

func prefix(field string, err error) error { return fmt.Errorf("%s: %w", field, err) }

var (
	errRed    = errors.New("MCR has no red fives")
	errFlower = errors.New("a flower is not played")
)

// parseTiles reads tiles; flowers only where flowers says so. "" is none.
func parseTiles(field, s string, flowers bool) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, tileError(field, s, err)
	}
	for _, t := range ts {
		if t.Red() {
			return nil, tileError(field, s, errRed)
		}
		if !flowers && t.Kind().IsFlower() {
			return nil, tileError(field, s, errFlower)
		}
	}
	return ts, nil
}

// parseTile reads exactly one tile.
func parseTile(field, s string, flowers bool) (tile.Tile, error) {
	ts, err := parseTiles(field, s, flowers)
	if err != nil {
		return 0, err
	}
	if len(ts) != 1 {
		return 0, tileError(field, s, fmt.Errorf("%d tiles, want one", len(ts)))
	}
	return ts[0], nil
}

// ParseTile reads one tile that may be played (no flower, no red five).
func ParseTile(field, s string) (tile.Tile, error) { return parseTile(field, s, false) }

// tilesStr formats tiles in their order ("" for none): a dealt hand keeps
// the order of the deal, a hand kept sorted stays sorted.
func tilesStr(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.FormatInOrder(ts)
}

func seatOf(field string, s uint32) (tbl.Seat, error) {
	if s >= tbl.NumSeats {
		return 0, malformed(field, "seat %d", s)
	}
	return tbl.Seat(s), nil
}

func windToPB(w tile.Wind) pb.Wind { return pb.Wind(w&3 + 1) }

func windOf(field string, w pb.Wind) (tile.Wind, error) {
	if w < pb.Wind_WIND_EAST || w > pb.Wind_WIND_NORTH {
		return 0, malformed(field, "wind %v", w)
	}
	return tile.Wind(w - 1), nil
}

func windsToPB(ws [tbl.NumSeats]tile.Wind) []pb.Wind {
	out := make([]pb.Wind, len(ws))
	for i, w := range ws {
		out[i] = windToPB(w)
	}
	return out
}

func windsOf(field string, ws []pb.Wind) ([tbl.NumSeats]tile.Wind, error) {
	var out [tbl.NumSeats]tile.Wind
	if len(ws) != tbl.NumSeats {
		return out, malformed(field, "%d winds, want %d", len(ws), tbl.NumSeats)
	}
	for i, w := range ws {
		var err error
		if out[i], err = windOf(field, w); err != nil {
			return out, err
		}
	}
	return out, nil
}

func ints(xs [tbl.NumSeats]int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

func four(field string, xs []int32) ([tbl.NumSeats]int, error) {
	var out [tbl.NumSeats]int
	if len(xs) != tbl.NumSeats {
		return out, malformed(field, "%d values, want %d", len(xs), tbl.NumSeats)
	}
	for i, x := range xs {
		out[i] = int(x)
	}
	return out, nil
}

func hash(h [32]byte) []byte {
	if h == ([32]byte{}) {
		return nil
	}
	return h[:]
}

func hashOf(field string, b []byte) ([32]byte, error) {
	var h [32]byte
	if len(b) != 0 && len(b) != len(h) {
		return h, malformed(field, "%d bytes, want %d", len(b), len(h))
	}
	copy(h[:], b)
	return h, nil
}

func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}
