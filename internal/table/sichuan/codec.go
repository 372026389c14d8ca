package sichuan

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The binary encoding of event bodies, for hosts that keep events in a
// store: a tag byte naming the body's type, then its fields - tiles, seats,
// suits and small enums as bytes, integers as varints, slices prefixed with
// their length. DecodeBody(AppendBody(b)) is b, up to empty slices, which
// decode as nil (the engine never emits an empty non-nil slice).

// ErrBody is what every error of AppendBody and DecodeBody matches.
var ErrBody = errors.New("sichuan: bad event body")

const (
	tagHandStarted = iota + 1
	tagDealt
	tagExchangeChosen
	tagExchanged
	tagExchangeReceived
	tagVoidChosen
	tagVoidsRevealed
	tagDrew
	tagDiscarded
	tagClaimOffer
	tagCalled
	tagKanPaid
	tagKanTransferred
	tagWon
	tagHandEnded
	tagMatchEnded
	tagTurnOffer
)

// Bounds of decoded values, so that a corrupt body cannot ask for much.
const (
	maxScore   = 1 << 30
	maxOptions = 64 // a turn: tsumo, every kind to discard, kans
	maxHand    = 14
	maxMelds   = 4
	maxName    = 32
)

// AppendBody appends the encoding of b to dst. It fails only for a nil body
// or a type that is not one of this package's.
func AppendBody(dst []byte, b Body) ([]byte, error) {
	switch b := b.(type) {
	case HandStarted:
		dst = append(dst, tagHandStarted)
		dst = pack.AppendInt(dst, b.Index)
		dst = append(dst, byte(b.Dealer))
		dst = appendScores(dst, &b.Scores)
		dst = pack.AppendInt(dst, b.WallLeft)
		dst = append(dst, b.Commitment[:]...)
	case Dealt:
		dst = append(dst, tagDealt, byte(b.Seat))
		dst = appendTiles(dst, b.Hand)
	case ExchangeChosen:
		dst = append(dst, tagExchangeChosen, byte(b.Seat), byte(b.Tiles[0]), byte(b.Tiles[1]), byte(b.Tiles[2]), flags(b.Known))
	case Exchanged:
		dst = append(dst, tagExchanged, byte(b.Direction))
	case ExchangeReceived:
		dst = append(dst, tagExchangeReceived, byte(b.Seat))
		dst = append(dst, byte(b.Gave[0]), byte(b.Gave[1]), byte(b.Gave[2]), byte(b.Got[0]), byte(b.Got[1]), byte(b.Got[2]), byte(b.From))
	case VoidChosen:
		dst = append(dst, tagVoidChosen, byte(b.Seat), byte(b.Suit), flags(b.Known))
	case VoidsRevealed:
		dst = append(dst, tagVoidsRevealed, byte(b.Voids[0]), byte(b.Voids[1]), byte(b.Voids[2]), byte(b.Voids[3]))
	case Drew:
		dst = append(dst, tagDrew, byte(b.Seat), byte(b.Tile), flags(b.Known, b.Replacement))
		dst = pack.AppendInt(dst, b.WallLeft)
	case Discarded:
		dst = append(dst, tagDiscarded, byte(b.Seat), byte(b.Tile))
	case ClaimOffer:
		dst = append(dst, tagClaimOffer, byte(b.Seat))
		dst = appendOptions(dst, b.Options)
	case TurnOffer:
		dst = append(dst, tagTurnOffer, byte(b.Seat))
		dst = appendOptions(dst, b.Options)
	case Called:
		dst = append(dst, tagCalled, byte(b.Seat))
		dst = appendMeld(dst, b.Meld)
	case KanPaid:
		dst = append(dst, tagKanPaid, byte(b.Seat), byte(b.Type))
		dst = appendScores(dst, &b.Deltas)
		dst = appendScores(dst, &b.Scores)
	case KanTransferred:
		dst = append(dst, tagKanTransferred, byte(b.Seat), byte(b.To))
		dst = pack.AppendInt(dst, b.Units)
		dst = appendScores(dst, &b.Scores)
	case Won:
		dst = append(dst, tagWon, byte(b.Seat), byte(b.From), flags(b.Tsumo, b.Chankan, b.Left))
		dst = appendTiles(dst, b.Hand)
		dst = pack.AppendUint(dst, uint64(len(b.Melds)))
		for _, m := range b.Melds {
			dst = appendMeld(dst, m)
		}
		dst = append(dst, byte(b.WinTile))
		dst = pack.AppendInt(dst, b.Fan)
		dst = pack.AppendUint(dst, uint64(len(b.Fans)))
		for _, f := range b.Fans {
			dst = pack.AppendString(dst, f.Name)
			dst = pack.AppendInt(dst, f.Fan)
		}
		dst = pack.AppendInt(dst, b.Value)
		dst = appendScores(dst, &b.Deltas)
		dst = appendScores(dst, &b.Scores)
	case HandEnded:
		dst = append(dst, tagHandEnded, byte(b.Kind))
		dst = append(dst, flags(b.HuaZhu[0], b.HuaZhu[1], b.HuaZhu[2], b.HuaZhu[3], b.Ready[0], b.Ready[1], b.Ready[2], b.Ready[3]))
		for _, s := range []*[NumSeats]int{&b.HuaZhuPay, &b.ReadyPay, &b.Refunds, &b.Deltas, &b.Scores} {
			dst = appendScores(dst, s)
		}
		for _, h := range b.Hands {
			dst = appendTiles(dst, h)
		}
		dst = append(dst, b.WallSeed[:]...)
		dst = append(dst, byte(b.NextDealer), flags(b.MatchOver))
	case MatchEnded:
		dst = append(dst, tagMatchEnded)
		dst = appendScores(dst, &b.Scores)
		dst = appendScores(dst, &b.Ranks)
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
		b := HandStarted{Index: r.Int("index", 0, 1<<16), Dealer: readSeat(r)}
		b.Scores = readScores(r)
		b.WallLeft = r.Int("wall left", 0, LiveSize)
		copy(b.Commitment[:], r.Fixed("commitment", 32))
		return b
	case tagDealt:
		return Dealt{Seat: readSeat(r), Hand: readTiles(r, maxHand)}
	case tagExchangeChosen:
		b := ExchangeChosen{Seat: readSeat(r)}
		b.Tiles = readThree(r)
		b.Known = r.Byte("flags")&1 != 0
		return b
	case tagExchanged:
		d := Direction(r.Byte("direction"))
		if d >= ToNext && d <= Across {
			return interned.exchanged[d]
		}
		return Exchanged{Direction: d}
	case tagExchangeReceived:
		b := ExchangeReceived{Seat: readSeat(r)}
		b.Gave, b.Got = readThree(r), readThree(r)
		b.From = readSeat(r)
		return b
	case tagVoidChosen:
		s, su, known := readSeat(r), tile.Suit(r.Byte("suit")), r.Byte("flags")&1 != 0
		if r.Err() == nil && (known || su == 0) {
			return voidBody(s, su, known)
		}
		return VoidChosen{Seat: s, Suit: su, Known: known}
	case tagVoidsRevealed:
		var v [NumSeats]tile.Suit
		for s := range v {
			v[s] = tile.Suit(r.Byte("void"))
		}
		return revealedBody(v)
	case tagDrew:
		s, x := readSeat(r), tile.Tile(r.Byte("tile"))
		f := r.Byte("flags")
		left := r.Int("wall left", 0, LiveSize)
		known, repl := f&1 != 0, f&2 != 0
		if r.Err() == nil && (known && suited(x) || !known && x == 0) {
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
		return ClaimOffer{Seat: readSeat(r), Options: readOptions(r)}
	case tagTurnOffer:
		return TurnOffer{Seat: readSeat(r), Options: readOptions(r)}
	case tagCalled:
		return Called{Seat: readSeat(r), Meld: readMeld(r)}
	case tagKanPaid:
		return KanPaid{Seat: readSeat(r), Type: MeldType(r.Byte("meld type")), Deltas: readScores(r), Scores: readScores(r)}
	case tagKanTransferred:
		return KanTransferred{Seat: readSeat(r), To: readSeat(r), Units: r.Int("units", -maxScore, maxScore), Scores: readScores(r)}
	case tagWon:
		b := Won{Seat: readSeat(r), From: readSeat(r)}
		f := r.Byte("flags")
		b.Tsumo, b.Chankan, b.Left = f&1 != 0, f&2 != 0, f&4 != 0
		b.Hand = readTiles(r, maxHand)
		if n := r.Count("melds", maxMelds); n > 0 {
			b.Melds = make([]Meld, n)
			for i := range b.Melds {
				b.Melds[i] = readMeld(r)
			}
		}
		b.WinTile = tile.Tile(r.Byte("win tile"))
		b.Fan = r.Int("fan", 0, 64)
		if n := r.Count("fans", maxFans); n > 0 {
			b.Fans = make([]Fan, n)
			for i := range b.Fans {
				b.Fans[i] = Fan{Name: r.String("fan name", maxName), Fan: r.Int("fan", 0, 64)}
			}
		}
		b.Value = r.Int("value", 0, maxScore)
		b.Deltas, b.Scores = readScores(r), readScores(r)
		return b
	case tagHandEnded:
		b := HandEnded{Kind: HandEndKind(r.Byte("kind"))}
		f := r.Byte("flags")
		for s := range NumSeats {
			b.HuaZhu[s], b.Ready[s] = f&(1<<s) != 0, f&(1<<(NumSeats+s)) != 0
		}
		for _, s := range []*[NumSeats]int{&b.HuaZhuPay, &b.ReadyPay, &b.Refunds, &b.Deltas, &b.Scores} {
			*s = readScores(r)
		}
		for s := range b.Hands {
			b.Hands[s] = readTiles(r, maxHand)
		}
		copy(b.WallSeed[:], r.Fixed("wall seed", 32))
		b.NextDealer = readSeat(r)
		b.MatchOver = r.Byte("flags")&1 != 0
		return b
	case tagMatchEnded:
		return MatchEnded{Scores: readScores(r), Ranks: readScores(r)}
	default:
		r.Fail("tag %d", tag)
		return nil
	}
}

// appendOptions encodes the actions of an offer (never deals: no wall).
func appendOptions(dst []byte, as []Action) []byte {
	dst = pack.AppendUint(dst, uint64(len(as)))
	for _, a := range as {
		dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Tiles[0]), byte(a.Tiles[1]), byte(a.Tiles[2]), byte(a.Suit))
	}
	return dst
}

func readOptions(r *pack.Reader) []Action {
	n := r.Count("options", maxOptions)
	if n == 0 {
		return nil
	}
	as := make([]Action, n)
	for i := range as {
		raw := r.Fixed("option", 7)
		if raw == nil {
			return nil
		}
		as[i] = Action{Seat: Seat(raw[0]), Type: ActionType(raw[1]), Tile: tile.Tile(raw[2]),
			Tiles: [3]tile.Tile{tile.Tile(raw[3]), tile.Tile(raw[4]), tile.Tile(raw[5])}, Suit: tile.Suit(raw[6])}
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

func readThree(r *pack.Reader) [3]tile.Tile {
	var ts [3]tile.Tile
	for i := range ts {
		ts[i] = tile.Tile(r.Byte("tile"))
	}
	return ts
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
	return append(dst, byte(m.Type), byte(m.Kind), byte(m.From))
}

func readMeld(r *pack.Reader) Meld {
	return Meld{Type: MeldType(r.Byte("meld type")), Kind: tile.Kind(r.Byte("meld kind")), From: readSeat(r)}
}
