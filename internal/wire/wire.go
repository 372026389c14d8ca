// Package wire is the wire form of the engine's types: the conversions
// between package table's actions, melds, views and event bodies and the
// protobuf messages of the API (gen/mahjong/authority/v1), where tiles are
// MPSZ strings ("123m", "0p" for the red five).
//
// It is its own package because both ends of the API speak it: the server
// (package server) encodes what its tables produce and decodes the actions
// clients send, and the Go client (package client) decodes what the server
// sends into the engine's own types and encodes its actions. One home keeps
// the two directions inverse of each other, which the round-trip tests check
// for every action type and event body.
//
// Decoding checks everything it reads: a malformed message is an error
// wrapping ErrBadTile (a tile string that does not read as riichi tiles) or
// ErrMalformed (anything else), never a panic. Fields an action type does not
// use are ignored; a caller that must refuse them (the server, so that a
// retried request with another payload is never taken for the same one)
// checks them itself.
package wire

import (
	"errors"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The errors of decoding. Every error names the field it is about.
var (
	ErrBadTile   = ruleset.ErrBadTile // "bad tile", which the server maps to BAD_TILE
	ErrMalformed = errors.New("malformed message")
)

// tileError is a tile field that does not read.
func tileError(field, s string, err error) error {
	return fmt.Errorf("%s %q: %w: %w", field, s, ErrBadTile, err)
}

// malformed is any other field that does not read.
func malformed(field, format string, args ...any) error {
	return fmt.Errorf("%s: %s: %w", field, fmt.Sprintf(format, args...), ErrMalformed)
}

// ParseTile reads exactly one riichi tile (flowers are not riichi tiles)
// from the named field.
func ParseTile(field, s string) (tile.Tile, error) {
	t, err := tile.ParseTile(s)
	if err != nil {
		return 0, tileError(field, s, err)
	}
	if t.Kind().IsFlower() {
		return 0, tileError(field, s, errors.New("riichi has no flowers"))
	}
	return t, nil
}

// ParseTiles reads riichi tiles from the named field; "" is none (nil).
func ParseTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, tileError(field, s, err)
	}
	for _, t := range ts {
		if t.Kind().IsFlower() {
			return nil, tileError(field, s, errors.New("riichi has no flowers"))
		}
	}
	return ts, nil
}

// optTile reads a tile that may be absent ("").
func optTile(field, s string) (tile.Tile, bool, error) {
	if s == "" {
		return 0, false, nil
	}
	t, err := ParseTile(field, s)
	return t, err == nil, err
}

// tilesStr formats tiles sorted and grouped ("" for none): hands and melds.
func tilesStr(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.Format(ts)
}

// kindsStr formats a set of kinds ("" for none): waits.
func kindsStr(ks tile.KindSet) string {
	if ks.Len() == 0 {
		return ""
	}
	return ks.String()
}

func seatOf(field string, s uint32) (table.Seat, error) {
	if s >= table.NumSeats {
		return 0, malformed(field, "seat %d", s)
	}
	return table.Seat(s), nil
}

func windToPB(w tile.Wind) pb.Wind { return pb.Wind(w + 1) }

func windOf(field string, w pb.Wind) (tile.Wind, error) {
	if w < pb.Wind_WIND_EAST || w > pb.Wind_WIND_NORTH {
		return 0, malformed(field, "wind %v", w)
	}
	return tile.Wind(w - 1), nil
}

// ints is the wire form of a per-seat list of numbers.
func ints(xs [table.NumSeats]int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

// four reads a per-seat list of numbers.
func four(field string, xs []int32) ([table.NumSeats]int, error) {
	var out [table.NumSeats]int
	if len(xs) != table.NumSeats {
		return out, malformed(field, "%d values, want %d", len(xs), table.NumSeats)
	}
	for i, x := range xs {
		out[i] = int(x)
	}
	return out, nil
}

// hash is the wire form of a hash: its bytes, or nil when it is unset.
func hash(h [32]byte) []byte {
	if h == ([32]byte{}) {
		return nil
	}
	return h[:]
}

// hashOf reads a hash: none (zero) or exactly 32 bytes.
func hashOf(field string, b []byte) ([32]byte, error) {
	var h [32]byte
	if len(b) != 0 && len(b) != len(h) {
		return h, malformed(field, "%d bytes, want %d", len(b), len(h))
	}
	copy(h[:], b)
	return h, nil
}

// invert returns the map from m's values to its keys: the enums are mapped
// once, one way, and inverted for the other.
func invert[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

// prefix adds the enclosing field to the error of a nested message.
func prefix(field string, err error) error { return fmt.Errorf("%s: %w", field, err) }
