// Package classical is the wire form of the classical engine's types
// (package table/classical): actions, melds, views and event bodies to and
// from the protobuf messages of the API, where tiles are MPSZ strings
// ("123m", flowers and seasons "1f".."8f"). Riichi's messages carry what
// they can say (RoundStarted, Dealt, Drew, Discarded, ClaimOffer,
// TurnOffer, Called, GameEnded, View); the rest travels in the classical
// messages (ClassicalView, ClassicalFishing, ClassicalHandEnded, ...).
//
// A classical action on the wire uses riichi's action types where they
// fit: Mah Jong is TSUMO in a turn and RON in a claim window, a chow is
// CHI with `tile` the run's lowest tile, a pung PON and a claimed kong
// OPEN_KAN (their `tile`, the claimed tile, optional); fishing is
// CLASSICAL_FISH.
//
// Like package wire it is shared by the server and the Go client; the
// round-trip tests keep the two directions inverse. Decoding checks
// everything it reads: a malformed message is an error wrapping ErrBadTile
// or ErrMalformed, never a panic.
package classical

import (
	"errors"
	"fmt"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
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

var (
	errNotPlaying = errors.New("not one of the 34 playing kinds")
	errNotBonus   = errors.New("not a flower or a season")
)

// playing reports whether x is one of the 34 playing kinds, not red.
func playing(x tile.Tile) bool { return !x.Red() && x.Kind() < tile.NumKinds }

// ParseTile reads exactly one playing tile (no flower, no red five).
func ParseTile(field, s string) (tile.Tile, error) {
	x, err := tile.ParseTile(s)
	if err != nil {
		return 0, tileError(field, s, err)
	}
	if !playing(x) {
		return 0, tileError(field, s, errNotPlaying)
	}
	return x, nil
}

// ParseTiles reads playing tiles in order; "" is none (nil).
func ParseTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, tileError(field, s, err)
	}
	for _, x := range ts {
		if !playing(x) {
			return nil, tileError(field, s, errNotPlaying)
		}
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts, nil
}

// parseBonus reads flowers and seasons; "" is none.
func parseBonus(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, tileError(field, s, err)
	}
	for _, x := range ts {
		if !x.Kind().IsFlower() {
			return nil, tileError(field, s, errNotBonus)
		}
	}
	if len(ts) == 0 {
		return nil, nil
	}
	return ts, nil
}

func optTile(field, s string) (tile.Tile, error) {
	if s == "" {
		return 0, nil
	}
	return ParseTile(field, s)
}

// tilesStr formats tiles in their order, grouped ("" for none).
func tilesStr(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.FormatInOrder(ts)
}

func tileStr(x tile.Tile) string { return x.String() }

func seatOf(field string, s uint32) (ct.Seat, error) {
	if s >= ct.NumSeats {
		return 0, malformed(field, "seat %d", s)
	}
	return ct.Seat(s), nil
}

// WindToPB is the wire form of a wind.
func WindToPB(w tile.Wind) pb.Wind { return pb.Wind(w&3) + pb.Wind_WIND_EAST }

func windOf(field string, w pb.Wind) (tile.Wind, error) {
	if w < pb.Wind_WIND_EAST || w > pb.Wind_WIND_NORTH {
		return 0, malformed(field, "wind %v", w)
	}
	return tile.Wind(w - pb.Wind_WIND_EAST), nil
}

func ints(xs [ct.NumSeats]int) []int32 {
	out := make([]int32, len(xs))
	for i, x := range xs {
		out[i] = int32(x)
	}
	return out
}

func four(field string, xs []int32) ([ct.NumSeats]int, error) {
	var out [ct.NumSeats]int
	if len(xs) != ct.NumSeats {
		return out, malformed(field, "%d values, want %d", len(xs), ct.NumSeats)
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
