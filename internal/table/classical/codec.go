package classical

import (
	"errors"
	"fmt"

	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The compact binary form of event bodies, for the host's event log and
// snapshots: a tag byte, then the fields in order, integers as varints,
// tiles, seats and flags as single bytes. DecodeBody reads back exactly
// what AppendBody wrote.

// ErrBody is what every error of AppendBody and DecodeBody matches.
var ErrBody = errors.New("classical: bad event body")

const (
	tagHandStarted = iota + 1
	tagDealt
	tagBonusSetAside
	tagDrew
	tagDiscarded
	tagFishing
	tagClaimOffer
	tagTurnOffer
	tagCalled
	tagWon
	tagHandEnded
	tagGameEnded
)

// Bounds of decoded values, so that a corrupt body cannot ask for much.
const (
	maxScore   = 1 << 30
	maxOptions = 64
	maxHand    = 14
	maxMelds   = 4
)

// AppendBody appends the encoding of b to dst. It fails only for a nil
// body or a type that is not one of this package's.
func AppendBody(dst []byte, b Body) ([]byte, error) {
	switch b := b.(type) {
	case HandStarted:
		dst = append(dst, tagHandStarted)
		dst = pack.AppendInt(dst, b.Index)
		dst = pack.AppendInt(dst, int(b.Round))
		dst = append(dst, byte(b.Dealer))
		dst = appendScores(dst, &b.Scores)
		dst = pack.AppendInt(dst, b.WallLeft)
		dst = append(dst, b.Commitment[:]...)
	case Dealt:
		dst = append(dst, tagDealt, byte(b.Seat))
		dst = appendTiles(dst, b.Hand)
	case BonusSetAside:
		dst = append(dst, tagBonusSetAside, byte(b.Seat), byte(b.Tile))
	case Drew:
		dst = append(dst, tagDrew, byte(b.Seat), byte(b.Tile), flags(b.Known, b.Replacement))
		dst = pack.AppendInt(dst, b.WallLeft)
	case Discarded:
		dst = append(dst, tagDiscarded, byte(b.Seat), byte(b.Tile))
	case Fishing:
		dst = append(dst, tagFishing, byte(b.Seat), flags(b.Original))
	case ClaimOffer:
		dst = append(dst, tagClaimOffer, byte(b.Seat))
		dst = appendOptions(dst, b.Options)
	case TurnOffer:
		dst = append(dst, tagTurnOffer, byte(b.Seat))
		dst = appendOptions(dst, b.Options)
	case Called:
		dst = append(dst, tagCalled, byte(b.Seat))
		dst = appendMeld(dst, b.Meld)
	case Won:
		dst = append(dst, tagWon, byte(b.Seat), byte(b.From), flags(b.SelfDrawn, b.RobbedKong))
		dst = appendTiles(dst, b.Hand)
		dst = pack.AppendUint(dst, uint64(len(b.Melds)))
		for _, m := range b.Melds {
			dst = appendMeld(dst, m)
		}
		dst = append(dst, byte(b.WinTile))
	case HandEnded:
		dst = append(dst, tagHandEnded)
		dst = pack.AppendInt(dst, int(b.Kind))
		dst = append(dst, byte(b.Winner))
		for _, l := range b.Lines {
			dst = pack.AppendInt(dst, l.Score)
			dst = pack.AppendInt(dst, l.Base)
			dst = pack.AppendInt(dst, l.Doubles)
			dst = pack.AppendInt(dst, int(l.Special))
			dst = append(dst, flags(l.Fishing))
		}
		dst = appendScores(dst, &b.Deltas)
		dst = appendScores(dst, &b.Scores)
		for _, h := range b.Hands {
			dst = appendTiles(dst, h)
		}
		dst = append(dst, b.WallSeed[:]...)
		dst = append(dst, byte(b.NextDealer))
		dst = pack.AppendInt(dst, int(b.NextRound))
		dst = append(dst, flags(b.GameOver))
	case GameEnded:
		dst = append(dst, tagGameEnded)
		dst = appendScores(dst, &b.Scores)
		dst = appendScores(dst, &b.Ranks)
	default:
		return dst, fmt.Errorf("%w: type %T", ErrBody, b)
	}
	return dst, nil
}

// DecodeBody decodes what AppendBody wrote, all of b. It never panics.
func DecodeBody(b []byte) (Body, error) {
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
		var e HandStarted
		e.Index = r.Int("index", 0, maxScore)
		e.Round = tile.Wind(r.Int("round", 0, 3))
		e.Dealer = readSeat(r)
		e.Scores = readScores(r)
		e.WallLeft = r.Int("wall left", 0, 144)
		copy(e.Commitment[:], r.Fixed("commitment", 32))
		return e
	case tagDealt:
		s := readSeat(r)
		return Dealt{Seat: s, Hand: readTiles(r, maxHand)}
	case tagBonusSetAside:
		return BonusSetAside{Seat: readSeat(r), Tile: readTile(r)}
	case tagDrew:
		e := Drew{Seat: readSeat(r), Tile: readTile(r)}
		f := r.Byte("flags")
		e.Known, e.Replacement = f&1 != 0, f&2 != 0
		e.WallLeft = r.Int("wall left", 0, 144)
		return e
	case tagDiscarded:
		return Discarded{Seat: readSeat(r), Tile: readTile(r)}
	case tagFishing:
		return Fishing{Seat: readSeat(r), Original: r.Byte("flags")&1 != 0}
	case tagClaimOffer:
		return ClaimOffer{Seat: readSeat(r), Options: readOptions(r)}
	case tagTurnOffer:
		return TurnOffer{Seat: readSeat(r), Options: readOptions(r)}
	case tagCalled:
		return Called{Seat: readSeat(r), Meld: readMeld(r)}
	case tagWon:
		e := Won{Seat: readSeat(r), From: readSeat(r)}
		f := r.Byte("flags")
		e.SelfDrawn, e.RobbedKong = f&1 != 0, f&2 != 0
		e.Hand = readTiles(r, maxHand)
		if n := r.Count("melds", maxMelds); n > 0 {
			e.Melds = make([]Meld, n)
			for i := range e.Melds {
				e.Melds[i] = readMeld(r)
			}
		}
		e.WinTile = readTile(r)
		return e
	case tagHandEnded:
		e := HandEnded{Kind: HandEndKind(r.Int("kind", 1, 2)), Winner: readSeat(r)}
		for i := range e.Lines {
			l := &e.Lines[i]
			l.Score = r.Int("score", -maxScore, maxScore)
			l.Base = r.Int("base", -maxScore, maxScore)
			l.Doubles = r.Int("doubles", 0, 64)
			l.Special = jc.Special(r.Int("special", 0, jc.NumSpecials))
			l.Fishing = r.Byte("flags")&1 != 0
		}
		e.Deltas = readScores(r)
		e.Scores = readScores(r)
		for i := range e.Hands {
			e.Hands[i] = readTiles(r, maxHand)
		}
		copy(e.WallSeed[:], r.Fixed("wall seed", 32))
		e.NextDealer = readSeat(r)
		e.NextRound = tile.Wind(r.Int("round", 0, 3))
		e.GameOver = r.Byte("flags")&1 != 0
		return e
	case tagGameEnded:
		return GameEnded{Scores: readScores(r), Ranks: readScores(r)}
	default:
		r.Fail("tag %d", tag)
	}
	return nil
}

func appendOptions(dst []byte, as []Action) []byte {
	dst = pack.AppendUint(dst, uint64(len(as)))
	for _, a := range as {
		dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile))
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
		as[i].Seat = readSeat(r)
		as[i].Type = ActionType(r.Byte("action type"))
		if as[i].Type < Discard || as[i].Type > Pass {
			r.Fail("action type %d", as[i].Type)
		}
		as[i].Tile = readTile(r)
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
	s := r.Byte("seat")
	if s >= NumSeats {
		r.Fail("seat %d", s)
	}
	return Seat(s)
}

func readTile(r *pack.Reader) tile.Tile {
	x := tile.Tile(r.Byte("tile"))
	if x != 0 && !x.Valid() {
		r.Fail("tile %d", x)
	}
	return x
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
	n := r.Count("tiles", max)
	if n == 0 {
		return nil
	}
	ts := make([]tile.Tile, n)
	for i := range ts {
		ts[i] = readTile(r)
	}
	return ts
}

func appendMeld(dst []byte, m Meld) []byte {
	return append(dst, byte(m.Type), byte(m.Kind), byte(m.From))
}

func readMeld(r *pack.Reader) Meld {
	m := Meld{Type: MeldType(r.Byte("meld type"))}
	if m.Type < MeldChow || m.Type > MeldConcealedKong {
		r.Fail("meld type %d", m.Type)
	}
	k := tile.Kind(r.Byte("kind"))
	if k >= tile.NumKinds {
		r.Fail("meld kind %d", k)
	}
	m.Kind = k
	m.From = readSeat(r)
	return m
}
