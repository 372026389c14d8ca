// Package sichuan is the wire form of the Sichuan engine's types (package
// table/sichuan): actions, melds, views and event bodies to and from the
// protobuf messages of the API, where tiles are MPSZ strings ("123m").
// Riichi's messages carry what they can say (RoundStarted, Dealt, Drew,
// Discarded, ClaimOffer, TurnOffer, Called, GameEnded, View); the rest
// travels in the Sichuan messages (SichuanView, SichuanWon, ...).
//
// Like package wire it is shared by the server, which encodes what its
// tables produce and decodes the actions clients send, and the Go client,
// which decodes what the server sends; the round-trip tests keep the two
// directions inverse. Decoding checks everything it reads: a malformed
// message is an error wrapping ErrBadTile (a tile that is not one of the
// 108: honours, flowers and red fives are not Sichuan tiles) or
// ErrMalformed, never a panic.
package sichuan

import (
	"errors"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wire"
)

// The errors of decoding, package wire's. Every error names its field.
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

var errNotSuited = errors.New("not one of the 108 suited tiles")

// suited reports whether x is one of Sichuan's tiles.
func suited(x tile.Tile) bool { return !x.Red() && x.Kind() < 27 }

// ParseTile reads exactly one Sichuan tile from the named field.
func ParseTile(field, s string) (tile.Tile, error) {
	x, err := tile.ParseTile(s)
	if err != nil {
		return 0, tileError(field, s, err)
	}
	if !suited(x) {
		return 0, tileError(field, s, errNotSuited)
	}
	return x, nil
}

// ParseTiles reads Sichuan tiles from the named field, in order; "" is
// none (nil).
func ParseTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, tileError(field, s, err)
	}
	for _, x := range ts {
		if !suited(x) {
			return nil, tileError(field, s, errNotSuited)
		}
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts, nil
}

func optTile(field, s string) (tile.Tile, bool, error) {
	if s == "" {
		return 0, false, nil
	}
	x, err := ParseTile(field, s)
	return x, err == nil, err
}

// three reads exactly three tiles.
func three(field, s string) ([3]tile.Tile, error) {
	var out [3]tile.Tile
	ts, err := ParseTiles(field, s)
	if err != nil {
		return out, err
	}
	if len(ts) != 3 {
		return out, malformed(field, "%d tiles, want 3", len(ts))
	}
	copy(out[:], ts)
	return out, nil
}

// tilesStr formats tiles in their order, grouped ("" for none).
func tilesStr(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.FormatInOrder(ts)
}

func seatOf(field string, s uint32) (sc.Seat, error) {
	if s >= sc.NumSeats {
		return 0, malformed(field, "seat %d", s)
	}
	return sc.Seat(s), nil
}

// SuitToPB is the wire form of a suit (Man, Pin or Sou).
func SuitToPB(s tile.Suit) pb.SichuanSuit { return pb.SichuanSuit(s + 1) }

// SuitFromPB reads a suit; the unspecified zero is not one.
func SuitFromPB(field string, s pb.SichuanSuit) (tile.Suit, error) {
	if s < pb.SichuanSuit_SICHUAN_SUIT_MAN || s > pb.SichuanSuit_SICHUAN_SUIT_SOU {
		return 0, malformed(field, "suit %v", s)
	}
	return tile.Suit(s - 1), nil
}

func directionOf(field string, d pb.SichuanDirection) (sc.Direction, error) {
	if d < pb.SichuanDirection_SICHUAN_DIRECTION_TO_NEXT || d > pb.SichuanDirection_SICHUAN_DIRECTION_ACROSS {
		return 0, malformed(field, "direction %v", d)
	}
	return sc.Direction(d), nil
}

func ints(xs [sc.NumSeats]int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

func four(field string, xs []int32) ([sc.NumSeats]int, error) {
	var out [sc.NumSeats]int
	if len(xs) != sc.NumSeats {
		return out, malformed(field, "%d values, want %d", len(xs), sc.NumSeats)
	}
	for i, x := range xs {
		out[i] = int(x)
	}
	return out, nil
}

func bools(field string, xs []bool) ([sc.NumSeats]bool, error) {
	var out [sc.NumSeats]bool
	if len(xs) != sc.NumSeats {
		return out, malformed(field, "%d values, want %d", len(xs), sc.NumSeats)
	}
	copy(out[:], xs)
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
