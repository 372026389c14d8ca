package table

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
	"github.com/mahjong-authority/authority/internal/pack"
)

// The binary encoding of event bodies, for hosts that keep events in a
// store: a tag byte naming the body's type, then its fields - seats and
// small enums as bytes, integers as varints, cards as 8 bytes of nibbles,
// seeds and commitments as 32 bytes (a commitment behind a flag).

// The tags of the body types. Zero is invalid.
const (
	tagDealStarted = iota + 1
	tagDealt
	tagBidMade
	tagThrownIn
	tagLandlordChosen
	tagPlayed
	tagPassed
	tagDealEnded
	tagMatchEnded
	tagOffer
)

// Bounds of decoded numbers.
const (
	maxIndex = 1 << 30
	maxBase  = 1 << 20
	maxBombs = 64
)

// AppendBody appends the encoding of b.
func AppendBody(dst []byte, b Body) ([]byte, error) {
	switch e := b.(type) {
	case DealStarted:
		dst = append(dst, tagDealStarted)
		dst = pack.AppendInt(dst, e.Index)
		dst = pack.AppendInt(dst, e.Number)
		dst = append(dst, byte(e.First))
		dst = appendHash(dst, e.Commitment)
		dst = appendInts(dst, e.Scores)
	case Dealt:
		dst = append(dst, tagDealt, byte(e.Seat))
		dst = appendCounts(dst, &e.Hand)
	case BidMade:
		dst = append(dst, tagBidMade, byte(e.Seat), byte(e.Type))
		dst = pack.AppendInt(dst, e.Bid)
		dst = pack.AppendInt(dst, e.Base)
	case ThrownIn:
		dst = append(dst, tagThrownIn)
		dst = pack.AppendInt(dst, e.Index)
		dst = append(dst, e.Seed[:]...)
		for i := range e.Hands {
			dst = appendCounts(dst, &e.Hands[i])
		}
		dst = appendCounts(dst, &e.Kitty)
	case LandlordChosen:
		dst = append(dst, tagLandlordChosen, byte(e.Seat))
		dst = appendCounts(dst, &e.Kitty)
		dst = pack.AppendInt(dst, e.Base)
	case Played:
		dst = append(dst, tagPlayed, byte(e.Seat), byte(e.Play.Type), byte(e.Play.Rank), e.Play.Len)
		dst = appendCounts(dst, &e.Play.Cards)
		dst = pack.AppendInt(dst, e.Left)
		dst = pack.AppendInt(dst, e.Bombs)
	case Passed:
		dst = append(dst, tagPassed, byte(e.Seat))
		dst = pack.AppendBool(dst, e.Lead)
	case DealEnded:
		dst = append(dst, tagDealEnded, byte(e.Winner), byte(e.Landlord),
			flagsOf(e.LandlordWon, e.Spring, e.AntiSpring, e.MatchOver))
		for _, v := range []int{e.Base, e.Bombs, e.Doublings, e.Stake} {
			dst = pack.AppendInt(dst, v)
		}
		dst = appendInts(dst, e.Deltas)
		dst = appendInts(dst, e.Scores)
		for i := range e.Hands {
			dst = appendCounts(dst, &e.Hands[i])
		}
		dst = append(dst, e.Seed[:]...)
	case MatchEnded:
		dst = append(dst, tagMatchEnded)
		dst = appendInts(dst, e.Scores)
		dst = appendInts(dst, e.Ranks)
	case Offer:
		dst = append(dst, tagOffer, byte(e.Seat), e.Bids, flagsOf(e.Call, e.Rob, e.Pass, e.Play, e.MustLead),
			byte(e.ToBeat.Type), byte(e.ToBeat.Rank), e.ToBeat.Len)
		dst = appendCounts(dst, &e.ToBeat.Cards)
	default:
		return dst, fmt.Errorf("%w: body %T", ErrCodec, b)
	}
	return dst, nil
}

// DecodeBody decodes what AppendBody wrote.
func DecodeBody(b []byte) (Body, error) {
	r := pack.NewReader(b)
	body := readBody(r)
	if err := r.Done(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCodec, err)
	}
	return body, nil
}

func readBody(r *pack.Reader) Body {
	switch tag := r.Byte("tag"); tag {
	case tagDealStarted:
		e := DealStarted{Index: r.Int("index", 0, maxIndex), Number: r.Int("number", 0, 1<<16), First: readSeat(r)}
		e.Commitment = readHash(r)
		e.Scores = readInts(r, "score", -4*maxScore, 4*maxScore)
		return e
	case tagDealt:
		return Dealt{Seat: readSeat(r), Hand: readCounts(r)}
	case tagBidMade:
		e := BidMade{Seat: readSeat(r), Type: ActionType(r.Byte("type"))}
		if e.Type < Bid || e.Type > Pass {
			r.Fail("bid type %d", e.Type)
		}
		e.Bid = r.Int("bid", 0, 3)
		e.Base = r.Int("base", 0, maxBase)
		return e
	case tagThrownIn:
		e := ThrownIn{Index: r.Int("index", 0, maxIndex)}
		e.Seed = [32]byte(pad32(r.Fixed("seed", 32)))
		for i := range e.Hands {
			e.Hands[i] = readCounts(r)
		}
		e.Kitty = readCounts(r)
		return e
	case tagLandlordChosen:
		return LandlordChosen{Seat: readSeat(r), Kitty: readCounts(r), Base: r.Int("base", 0, maxBase)}
	case tagPlayed:
		e := Played{Seat: readSeat(r)}
		e.Play.Type = judge.Type(r.Byte("play type"))
		e.Play.Rank = card.Rank(r.Byte("rank"))
		e.Play.Len = r.Byte("len")
		if e.Play.Type > judge.FourTwoPairs || !e.Play.Rank.Valid() || e.Play.Len > card.NumCards {
			r.Fail("play %d %d %d", e.Play.Type, e.Play.Rank, e.Play.Len)
		}
		e.Play.Cards = readCounts(r)
		e.Left = r.Int("left", 0, card.NumCards)
		e.Bombs = r.Int("bombs", 0, maxBombs)
		return e
	case tagPassed:
		return Passed{Seat: readSeat(r), Lead: r.Bool("lead")}
	case tagDealEnded:
		e := DealEnded{Winner: readSeat(r), Landlord: readSeat(r)}
		f := r.Byte("flags")
		if f > 15 {
			r.Fail("flags %#x", f)
		}
		e.LandlordWon, e.Spring, e.AntiSpring, e.MatchOver = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0
		e.Base = r.Int("base", 0, maxBase)
		e.Bombs = r.Int("bombs", 0, maxBombs)
		e.Doublings = r.Int("doublings", 0, maxBombs)
		e.Stake = r.Int("stake", 0, maxScore)
		e.Deltas = readInts(r, "delta", -2*maxScore, 2*maxScore)
		e.Scores = readInts(r, "score", -4*maxScore, 4*maxScore)
		for i := range e.Hands {
			e.Hands[i] = readCounts(r)
		}
		e.Seed = [32]byte(pad32(r.Fixed("seed", 32)))
		return e
	case tagMatchEnded:
		return MatchEnded{Scores: readInts(r, "score", -4*maxScore, 4*maxScore), Ranks: readInts(r, "rank", 1, NumSeats)}
	case tagOffer:
		e := Offer{Seat: readSeat(r), Bids: r.Byte("bids")}
		f := r.Byte("flags")
		if f > 31 || e.Bids&^0b1110 != 0 {
			r.Fail("offer %#x %#x", e.Bids, f)
		}
		e.Call, e.Rob, e.Pass, e.Play, e.MustLead = f&1 != 0, f&2 != 0, f&4 != 0, f&8 != 0, f&16 != 0
		e.ToBeat.Type = judge.Type(r.Byte("play type"))
		e.ToBeat.Rank = card.Rank(r.Byte("rank"))
		e.ToBeat.Len = r.Byte("len")
		if e.ToBeat.Type > judge.FourTwoPairs || !e.ToBeat.Rank.Valid() || e.ToBeat.Len > card.NumCards {
			r.Fail("play %d %d %d", e.ToBeat.Type, e.ToBeat.Rank, e.ToBeat.Len)
		}
		e.ToBeat.Cards = readCounts(r)
		return e
	default:
		r.Fail("tag %d", tag)
	}
	return nil
}

func flagsOf(bs ...bool) byte {
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

// appendHash writes a 32-byte value behind a flag: 0 for zero, 1 then
// the bytes.
func appendHash(dst []byte, h [32]byte) []byte {
	if h == ([32]byte{}) {
		return append(dst, 0)
	}
	return append(append(dst, 1), h[:]...)
}

func readHash(r *pack.Reader) [32]byte {
	if !r.Bool("hash flag") {
		return [32]byte{}
	}
	h := [32]byte(pad32(r.Fixed("hash", 32)))
	if r.Err() == nil && h == ([32]byte{}) {
		r.Fail("a zero hash behind its flag")
	}
	return h
}

func appendInts(dst []byte, v [NumSeats]int) []byte {
	for _, x := range v {
		dst = pack.AppendInt(dst, x)
	}
	return dst
}

func readInts(r *pack.Reader, what string, min, max int) [NumSeats]int {
	var v [NumSeats]int
	for i := range v {
		v[i] = r.Int(what, min, max)
	}
	return v
}
