package mcr

import (
	"errors"
	"fmt"
	"math"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The binary encoding of event bodies, for hosts that keep events in a
// store: a tag byte naming the body's type, then its fields - tiles, seats,
// winds and small enums as bytes, integers as varints, slices prefixed with
// their length, table points as the bits of their float64. DecodeBody(
// AppendBody(b)) is b, up to empty slices, which decode as nil (the engine
// never emits an empty non-nil slice).

// ErrBody is what every error of AppendBody and DecodeBody matches.
var ErrBody = errors.New("mcr: bad event body")

const (
	tagHandStarted = iota + 1
	tagDealt
	tagFlowerSetAside
	tagDrew
	tagDiscarded
	tagClaimOffer
	tagCalled
	tagWon
	tagHandEnded
	tagGameEnded
	tagTurnOffer
)

// Bounds of decoded values, so that a corrupt body cannot ask for much.
const (
	maxScore   = 1 << 30
	maxOptions = 7
	maxTurn    = 24 // tsumo, kongs and up to 14 discards
	maxHand    = 14
	maxMelds   = 4
	maxName    = 64
)

// AppendBody appends the encoding of b to dst. It fails only for a nil body
// or a type that is not one of this package's.
func AppendBody(dst []byte, b Body) ([]byte, error) {
	switch b := b.(type) {
	case HandStarted:
		dst = append(dst, tagHandStarted)
		dst = pack.AppendInt(dst, b.Index)
		dst = append(dst, byte(b.Round), byte(b.Dealer), byte(b.Winds[0]), byte(b.Winds[1]), byte(b.Winds[2]), byte(b.Winds[3]))
		dst = appendScores(dst, &b.Scores)
		dst = pack.AppendInt(dst, b.WallLeft)
		dst = append(dst, b.Commitment[:]...)
	case Dealt:
		dst = append(dst, tagDealt, byte(b.Seat))
		dst = appendTiles(dst, b.Hand)
	case FlowerSetAside:
		dst = append(dst, tagFlowerSetAside, byte(b.Seat), byte(b.Flower))
	case Drew:
		dst = append(dst, tagDrew, byte(b.Seat), byte(b.Tile), flags(b.Known, b.Replacement))
		dst = pack.AppendInt(dst, b.WallLeft)
	case Discarded:
		dst = append(dst, tagDiscarded, byte(b.Seat), byte(b.Tile))
	case ClaimOffer:
		dst = append(dst, tagClaimOffer, byte(b.Seat))
		dst = pack.AppendUint(dst, uint64(len(b.Options)))
		for _, a := range b.Options {
			dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Run))
		}
	case TurnOffer:
		dst = append(dst, tagTurnOffer, byte(b.Seat))
		dst = pack.AppendUint(dst, uint64(len(b.Options)))
		for _, a := range b.Options {
			dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Run))
		}
	case Called:
		dst = append(dst, tagCalled, byte(b.Seat))
		dst = appendMeld(dst, b.Meld)
	case Won:
		dst = append(dst, tagWon, byte(b.Seat), byte(b.From), flags(b.Tsumo, b.Chankan))
		dst = appendTiles(dst, b.Hand)
		dst = pack.AppendUint(dst, uint64(len(b.Melds)))
		for _, m := range b.Melds {
			dst = appendMeld(dst, m)
		}
		dst = append(dst, byte(b.WinTile))
		dst = pack.AppendInt(dst, b.Flowers)
		dst = pack.AppendUint(dst, uint64(len(b.Fans)))
		for _, f := range b.Fans {
			dst = pack.AppendString(dst, f.Name)
			dst = pack.AppendInt(dst, f.Count)
			dst = pack.AppendInt(dst, f.Points)
		}
		dst = pack.AppendInt(dst, b.Total)
		dst = appendScores(dst, &b.Deltas)
		dst = appendScores(dst, &b.Scores)
	case HandEnded:
		dst = append(dst, tagHandEnded, byte(b.Kind))
		dst = appendScores(dst, &b.Deltas)
		dst = appendScores(dst, &b.Scores)
		dst = append(dst, b.WallSeed[:]...)
		dst = append(dst, flags(b.GameOver))
	case GameEnded:
		dst = append(dst, tagGameEnded)
		dst = appendScores(dst, &b.Scores)
		for _, p := range b.TablePoints {
			dst = pack.AppendUint(dst, math.Float64bits(p))
		}
	default:
		return dst, fmt.Errorf("%w: type %T", ErrBody, b)
	}
	return dst, nil
}

// DecodeBody decodes what AppendBody wrote, all of b. It never panics.
func DecodeBody(b []byte) (Body, error) {
	internBodies()
	r := pack.NewReader(b)
	body := readBody(r)
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrBody, err)
	}
	return body, nil
}

func readBody(r *pack.Reader) Body {
	switch tag := r.Byte("tag"); tag {
	case tagHandStarted:
		b := HandStarted{Index: r.Int("index", 0, MaxHands), Round: readWind(r), Dealer: readSeat(r)}
		for s := range b.Winds {
			b.Winds[s] = readWind(r)
		}
		b.Scores = readScores(r)
		b.WallLeft = r.Int("wall left", 0, maxLeft)
		copy(b.Commitment[:], r.Fixed("commitment", 32))
		return b
	case tagDealt:
		return Dealt{Seat: readSeat(r), Hand: readTiles(r, maxHand)}
	case tagFlowerSetAside:
		s, x := readSeat(r), tile.Tile(r.Byte("flower"))
		if r.Err() == nil {
			return flowerBody(s, x)
		}
		return FlowerSetAside{Seat: s, Flower: x}
	case tagDrew:
		s, x := readSeat(r), tile.Tile(r.Byte("tile"))
		f := r.Byte("flags")
		left := r.Int("wall left", 0, maxLeft)
		known, repl := f&1 != 0, f&2 != 0
		if r.Err() == nil && (known || x == 0) {
			return drewBody(s, x, known, repl, left)
		}
		return Drew{Seat: s, Tile: x, Known: known, Replacement: repl, WallLeft: left}
	case tagDiscarded:
		s, x := readSeat(r), tile.Tile(r.Byte("tile"))
		if r.Err() == nil {
			return discardedBody(s, x)
		}
		return Discarded{Seat: s, Tile: x}
	case tagClaimOffer:
		b := ClaimOffer{Seat: readSeat(r)}
		b.Options = readOptions(r, maxOptions)
		return b
	case tagTurnOffer:
		b := TurnOffer{Seat: readSeat(r)}
		b.Options = readOptions(r, maxTurn)
		return b
	case tagCalled:
		return Called{Seat: readSeat(r), Meld: readMeld(r)}
	case tagWon:
		b := Won{Seat: readSeat(r), From: readSeat(r)}
		f := r.Byte("flags")
		b.Tsumo, b.Chankan = f&1 != 0, f&2 != 0
		b.Hand = readTiles(r, maxHand)
		if n := r.Count("melds", maxMelds); n > 0 {
			b.Melds = make([]Meld, n)
			for i := range b.Melds {
				b.Melds[i] = readMeld(r)
			}
		}
		b.WinTile = tile.Tile(r.Byte("win tile"))
		b.Flowers = r.Int("flowers", 0, 8)
		if n := r.Count("fans", maxFans); n > 0 {
			b.Fans = make([]Fan, n)
			for i := range b.Fans {
				b.Fans[i] = Fan{Name: r.String("fan name", maxName), Count: r.Int("fan count", 0, 64), Points: r.Int("fan points", 0, 1<<12)}
			}
		}
		b.Total = r.Int("total", 0, maxScore)
		b.Deltas, b.Scores = readScores(r), readScores(r)
		return b
	case tagHandEnded:
		b := HandEnded{Kind: HandEndKind(r.Byte("kind"))}
		b.Deltas, b.Scores = readScores(r), readScores(r)
		copy(b.WallSeed[:], r.Fixed("wall seed", 32))
		b.GameOver = r.Byte("flags")&1 != 0
		return b
	case tagGameEnded:
		b := GameEnded{Scores: readScores(r)}
		for s := range b.TablePoints {
			b.TablePoints[s] = math.Float64frombits(r.Uint("table points", math.MaxUint64))
		}
		return b
	default:
		r.Fail("tag %d", tag)
		return nil
	}
}

func readOptions(r *pack.Reader, max int) []Action {
	n := r.Count("options", max)
	if n == 0 {
		return nil
	}
	as := make([]Action, n)
	for i := range as {
		raw := r.Fixed("option", 4)
		if raw == nil {
			return nil
		}
		as[i] = Action{Seat: Seat(raw[0]), Type: ActionType(raw[1]), Tile: tile.Tile(raw[2]), Run: tile.Kind(raw[3])}
	}
	return as
}

func flags(bs ...bool) byte {
	var f byte
	for i, b := range bs {
		if b {
			f |= 1 << i
		}
	}
	return f
}

func readSeat(r *pack.Reader) Seat {
	s := Seat(r.Byte("seat"))
	if s >= NumSeats {
		r.Fail("seat %d", s)
	}
	return s
}

func readWind(r *pack.Reader) tile.Wind {
	w := tile.Wind(r.Byte("wind"))
	if w >= NumSeats {
		r.Fail("wind %d", w)
	}
	return w
}

func appendScores(dst []byte, s *[NumSeats]int) []byte {
	for _, v := range s {
		dst = pack.AppendInt(dst, v)
	}
	return dst
}

func readScores(r *pack.Reader) [NumSeats]int {
	var s [NumSeats]int
	for i := range s {
		s[i] = r.Int("score", -maxScore, maxScore)
	}
	return s
}

func appendTiles(dst []byte, ts []tile.Tile) []byte {
	dst = pack.AppendUint(dst, uint64(len(ts)))
	for _, x := range ts {
		dst = append(dst, byte(x))
	}
	return dst
}

func readTiles(r *pack.Reader, max int) []tile.Tile {
	raw := r.Bytes("tiles", max)
	if len(raw) == 0 {
		return nil
	}
	ts := make([]tile.Tile, len(raw))
	for i, b := range raw {
		ts[i] = tile.Tile(b)
	}
	return ts
}

func appendMeld(dst []byte, m Meld) []byte {
	return append(dst, byte(m.Type), byte(m.Kind), byte(m.Called), byte(m.From), flags(m.Hidden))
}

func readMeld(r *pack.Reader) Meld {
	return Meld{Type: MeldType(r.Byte("meld type")), Kind: tile.Kind(r.Byte("meld kind")), Called: tile.Kind(r.Byte("meld called")),
		From: readSeat(r), Hidden: r.Byte("meld flags")&1 != 0}
}
