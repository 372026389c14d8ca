package table

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/tile"
)

// The binary encoding of event bodies, for hosts that keep events in a
// store (a snapshot's event log, a record's rounds): a tag byte naming the
// body's type, then its fields - tiles and seats as bytes, integers as
// varints, slices prefixed with their length. DecodeBody(AppendBody(b)) is
// b, up to empty slices, which decode as nil (the engine never emits an
// empty non-nil slice).

// ErrBody is what every error of AppendBody and DecodeBody matches.
var ErrBody = errors.New("table: bad event body")

// The tags of the body types. Zero is invalid.
const (
	tagRoundStarted = iota + 1
	tagDealt
	tagDrew
	tagDiscarded
	tagFishing
	tagClaimOffer
	tagTurnOffer
	tagRiichiAccepted
	tagCalled
	tagDoraRevealed
	tagWon
	tagRoundEnded
	tagGameEnded
)

// maxOptions bounds the actions of an offer: a turn lists at most every
// distinct discard twice (riichi), kans, tsumo and the abort.
const maxOptions = 64

// AppendBody appends the encoding of b to dst. It fails only for a nil
// body or a type that is not one of this package's.
func AppendBody(dst []byte, b Body) ([]byte, error) {
	switch b := b.(type) {
	case RoundStarted:
		dst = append(dst, tagRoundStarted, byte(b.RoundWind))
		dst = pack.AppendInt(dst, b.Number)
		dst = append(dst, byte(b.Dealer))
		dst = pack.AppendInt(dst, b.Honba)
		dst = pack.AppendInt(dst, b.RiichiSticks)
		dst = appendScores(dst, &b.Scores)
		dst = append(dst, byte(b.Dora))
		dst = pack.AppendInt(dst, b.WallLeft)
		dst = pack.AppendInt(dst, b.Index)
		dst = append(dst, b.Commitment[:]...)
	case Dealt:
		dst = append(dst, tagDealt, byte(b.Seat))
		dst = appendTiles(dst, b.Hand)
	case Drew:
		dst = append(dst, tagDrew, byte(b.Seat), byte(b.Tile), flags(b.Known, b.Rinshan))
		dst = pack.AppendInt(dst, b.WallLeft)
	case Discarded:
		dst = append(dst, tagDiscarded, byte(b.Seat), byte(b.Tile), flags(b.Tsumogiri, b.Riichi))
	case Fishing:
		dst = append(dst, tagFishing, byte(b.Seat))
		dst = pack.AppendInt(dst, b.Shanten)
		dst = pack.AppendUint(dst, uint64(b.Waits))
		dst = pack.AppendBool(dst, b.Furiten)
	case ClaimOffer:
		dst = append(dst, tagClaimOffer, byte(b.Seat))
		dst = appendOptions(dst, b.Options)
	case TurnOffer:
		dst = append(dst, tagTurnOffer, byte(b.Seat))
		dst = appendOptions(dst, b.Options)
	case RiichiAccepted:
		dst = append(dst, tagRiichiAccepted, byte(b.Seat))
		dst = appendScores(dst, &b.Scores)
		dst = pack.AppendInt(dst, b.RiichiSticks)
	case Called:
		dst = append(dst, tagCalled, byte(b.Seat))
		dst = appendMeld(dst, b.Meld)
		dst = appendScores(dst, &b.Scores)
	case DoraRevealed:
		dst = append(dst, tagDoraRevealed, byte(b.Indicator))
	case Won:
		dst = append(dst, tagWon, byte(b.Seat), byte(b.From), flags(b.Tsumo, b.PaoSet), byte(b.Pao))
		dst = appendTiles(dst, b.Hand)
		dst = pack.AppendUint(dst, uint64(len(b.Melds)))
		for _, m := range b.Melds {
			dst = appendMeld(dst, m)
		}
		dst = append(dst, byte(b.WinTile))
		dst = appendTiles(dst, b.Ura)
		dst = pack.AppendInt(dst, b.Han)
		dst = pack.AppendInt(dst, b.Fu)
		dst = pack.AppendInt(dst, b.Yakuman)
		dst = pack.AppendUint(dst, uint64(len(b.Yaku)))
		for _, y := range b.Yaku {
			dst = append(dst, byte(y.Yaku))
			dst = pack.AppendInt(dst, y.Han)
		}
		dst = append(dst, byte(b.Limit))
		dst = pack.AppendInt(dst, b.Points)
		dst = appendScores(dst, &b.Deltas)
	case RoundEnded:
		dst = append(dst, tagRoundEnded, byte(b.Kind))
		dst = appendScores(dst, &b.Deltas)
		dst = appendScores(dst, &b.Scores)
		dst = append(dst, flags(b.Tenpai[0], b.Tenpai[1], b.Tenpai[2], b.Tenpai[3], b.GameOver))
		for _, h := range b.Hands {
			dst = appendTiles(dst, h)
		}
		dst = pack.AppendInt(dst, b.RiichiSticks)
		dst = pack.AppendInt(dst, b.Honba)
		dst = append(dst, b.WallSeed[:]...)
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
	case tagRoundStarted:
		b := RoundStarted{RoundWind: tile.Wind(r.Byte("round wind")), Number: r.Int("number", 0, 4), Dealer: readSeat(r)}
		b.Honba = r.Int("honba", 0, maxHonba)
		b.RiichiSticks = r.Int("sticks", 0, maxScore/1000)
		b.Scores = readScores(r)
		b.Dora = tile.Tile(r.Byte("dora"))
		b.WallLeft = r.Int("wall left", 0, 255)
		b.Index = r.Int("index", 0, maxRounds)
		copy(b.Commitment[:], r.Fixed("commitment", 32))
		return b
	case tagDealt:
		return Dealt{Seat: readSeat(r), Hand: readTiles(r, maxHand)}
	case tagDrew:
		s, x := readSeat(r), tile.Tile(r.Byte("tile"))
		f := r.Byte("flags")
		known, rinshan := f&1 != 0, f&2 != 0
		left := r.Int("wall left", 0, 255)
		if r.Err() == nil && (known && playable(x) || !known && x == 0) {
			return drewBody(s, x, known, rinshan, left) // boxed once, shared
		}
		return Drew{Seat: s, Tile: x, Known: known, Rinshan: rinshan, WallLeft: left}
	case tagDiscarded:
		s, x := readSeat(r), tile.Tile(r.Byte("tile"))
		f := r.Byte("flags")
		if r.Err() == nil && playable(x) {
			return discardedBody(s, x, f&1 != 0, f&2 != 0)
		}
		return Discarded{Seat: s, Tile: x, Tsumogiri: f&1 != 0, Riichi: f&2 != 0}
	case tagFishing:
		return Fishing{Seat: readSeat(r), Shanten: r.Int("shanten", -1, 8), Waits: tile.KindSet(r.Uint("waits", 1<<tile.NumKinds-1)), Furiten: r.Bool("furiten")}
	case tagClaimOffer:
		return ClaimOffer{Seat: readSeat(r), Options: readOptions(r)}
	case tagTurnOffer:
		return TurnOffer{Seat: readSeat(r), Options: readOptions(r)}
	case tagRiichiAccepted:
		return RiichiAccepted{Seat: readSeat(r), Scores: readScores(r), RiichiSticks: r.Int("sticks", 0, maxScore/1000)}
	case tagCalled:
		return Called{Seat: readSeat(r), Meld: readMeld(r), Scores: readScores(r)}
	case tagDoraRevealed:
		return DoraRevealed{Indicator: tile.Tile(r.Byte("indicator"))}
	case tagWon:
		b := Won{Seat: readSeat(r), From: readSeat(r)}
		f := r.Byte("flags")
		b.Tsumo, b.PaoSet = f&1 != 0, f&2 != 0
		b.Pao = readSeat(r)
		b.Hand = readTiles(r, maxHand)
		if n := r.Count("melds", 4); n > 0 {
			b.Melds = make([]Meld, n)
			for i := range b.Melds {
				b.Melds[i] = readMeld(r)
			}
		}
		b.WinTile = tile.Tile(r.Byte("win tile"))
		b.Ura = readTiles(r, 5)
		b.Han = r.Int("han", 0, 1<<10)
		b.Fu = r.Int("fu", 0, 1<<10)
		b.Yakuman = r.Int("yakuman", 0, 64)
		if n := r.Count("yaku", 64); n > 0 {
			b.Yaku = make([]judge.YakuHan, n)
			for i := range b.Yaku {
				b.Yaku[i] = judge.YakuHan{Yaku: judge.Yaku(r.Byte("yaku")), Han: r.Int("yaku han", 0, 1<<10)}
			}
		}
		b.Limit = judge.Limit(r.Byte("limit"))
		b.Points = r.Int("points", -maxScore, maxScore)
		b.Deltas = readScores(r)
		return b
	case tagRoundEnded:
		b := RoundEnded{Kind: RoundEndKind(r.Byte("kind")), Deltas: readScores(r), Scores: readScores(r)}
		f := r.Byte("flags")
		for s := range b.Tenpai {
			b.Tenpai[s] = f&(1<<s) != 0
		}
		b.GameOver = f&(1<<NumSeats) != 0
		for s := range b.Hands {
			b.Hands[s] = readTiles(r, maxHand)
		}
		b.RiichiSticks = r.Int("sticks", 0, maxScore/1000)
		b.Honba = r.Int("honba", 0, maxHonba)
		copy(b.WallSeed[:], r.Fixed("wall seed", 32))
		return b
	case tagGameEnded:
		return GameEnded{Scores: readScores(r), Ranks: readScores(r)}
	default:
		r.Fail("tag %d", tag)
		return nil
	}
}

// flags packs booleans into a byte, the first in bit 0.
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

// readTiles reads at most max tiles; none is nil.
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
	dst = append(dst, byte(m.Type))
	for _, x := range m.Tiles {
		dst = append(dst, byte(x))
	}
	return append(dst, byte(m.From), byte(m.Called), byte(m.Added))
}

func readMeld(r *pack.Reader) Meld {
	var m Meld
	m.Type = judge.MeldType(r.Byte("meld type"))
	for i := range m.Tiles {
		m.Tiles[i] = tile.Tile(r.Byte("meld tile"))
	}
	m.From = readSeat(r)
	m.Called = tile.Tile(r.Byte("called"))
	m.Added = tile.Tile(r.Byte("added"))
	return m
}

func discardFlags(d DiscardView) byte { return flags(d.Tsumogiri, d.Riichi, d.Called) }

func readDiscard(r *pack.Reader) DiscardView {
	d := DiscardView{Tile: tile.Tile(r.Byte("discard"))}
	f := r.Byte("discard flags")
	d.Tsumogiri, d.Riichi, d.Called = f&1 != 0, f&2 != 0, f&4 != 0
	return d
}

// appendOptions encodes the actions of an offer (never deals: no wall).
func appendOptions(dst []byte, as []Action) []byte {
	dst = pack.AppendUint(dst, uint64(len(as)))
	for _, a := range as {
		dst = append(dst, byte(a.Seat), byte(a.Type), byte(a.Tile), byte(a.Tiles[0]), byte(a.Tiles[1]), flags(a.Tsumogiri))
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
		raw := r.Fixed("option", 6)
		if raw == nil {
			return nil
		}
		as[i] = Action{Seat: Seat(raw[0]), Type: ActionType(raw[1]), Tile: tile.Tile(raw[2]),
			Tiles: [2]tile.Tile{tile.Tile(raw[3]), tile.Tile(raw[4])}, Tsumogiri: raw[5]&1 != 0}
	}
	return as
}
