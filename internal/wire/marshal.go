package wire

import (
	"sync"
	"time"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// MarshalEvent is the encoding of EventToPB's message (what proto.Marshal
// gives), made for the one encoding the server shares among an event's
// viewers. The frequent bodies - a draw, a discard, a shanten notice and
// the offers, most of a game's events - are written field by field, with
// no message made and one allocation, the result: an offer lists a dozen
// actions or more, and building and marshaling its messages was most of
// the CPU the server spent encoding an action's events. The others go
// through EventToPB and proto.Marshal. TestMarshalEvent and
// TestGamesRoundTrip compare the two byte for byte.
func MarshalEvent(seq uint64, at time.Time, body table.Body) ([]byte, error) {
	x := scratchPool.Get().(*scratch)
	defer scratchPool.Put(x)
	num, inner, ok := appendBody(x.b[:0], body)
	x.b = inner[:0]
	if !ok {
		ev, err := EventToPB(seq, at, body)
		if err != nil {
			return nil, err
		}
		return proto.Marshal(ev)
	}
	secs, nanos := at.Unix(), int32(at.Nanosecond())
	ts := sizeInt(fTimeSeconds, secs) + sizeInt(fTimeNanos, int64(nanos))
	n := sizeUint(fEventSeq, seq) + protowire.SizeTag(fEventTime) + protowire.SizeBytes(ts) +
		protowire.SizeTag(num) + protowire.SizeBytes(len(inner))
	b := make([]byte, 0, n)
	b = appendUint(b, fEventSeq, seq)
	b = protowire.AppendTag(b, fEventTime, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(ts))
	b = appendInt(b, fTimeSeconds, secs)
	b = appendInt(b, fTimeNanos, int64(nanos))
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(inner)))
	return append(b, inner...), nil
}

// scratch is MarshalEvent's buffer for a body's fields, kept in a pool.
type scratch struct{ b []byte }

var scratchPool = sync.Pool{New: func() any { return &scratch{b: make([]byte, 0, 256)} }}

// appendBody appends the fields of the frequent bodies' messages to b and
// returns the number of the Event field that holds it; ok is false for
// the others (b unchanged).
func appendBody(b []byte, body table.Body) (num protowire.Number, _ []byte, ok bool) {
	switch v := body.(type) {
	case table.Drew:
		b = appendUint(b, 1, uint64(v.Seat))
		if v.Known {
			b = appendString(b, 2, v.Tile.String())
		}
		b = appendBool(b, 3, v.Rinshan)
		b = appendInt(b, 4, int64(int32(v.WallLeft)))
		return fEventDrew, b, true
	case table.Discarded:
		b = appendUint(b, 1, uint64(v.Seat))
		b = appendString(b, 2, v.Tile.String())
		b = appendBool(b, 3, v.Tsumogiri)
		b = appendBool(b, 4, v.Riichi)
		return fEventDiscarded, b, true
	case table.Fishing:
		b = appendUint(b, 1, uint64(v.Seat))
		b = appendInt(b, 2, int64(int32(v.Shanten)))
		if v.Waits.Len() > 0 {
			// The waits' notation is short (at most 34 kinds): one byte
			// of length, patched.
			b = protowire.AppendTag(b, 3, protowire.BytesType)
			at := len(b)
			b = v.Waits.AppendTo(append(b, 0))
			b[at] = byte(len(b) - at - 1)
		}
		b = appendBool(b, 4, v.Furiten)
		return fEventFishing, b, true
	case table.ClaimOffer:
		return fEventClaimOffer, appendOffer(b, v.Seat, v.Options), true
	case table.TurnOffer:
		return fEventTurnOffer, appendOffer(b, v.Seat, v.Options), true
	}
	return 0, b, false
}

// appendOffer appends a ClaimOffer's or a TurnOffer's fields (the two
// messages are alike).
func appendOffer(b []byte, seat table.Seat, options []table.Action) []byte {
	b = appendUint(b, 1, uint64(seat))
	for _, a := range options {
		// An Action's fields are a few bytes (fillAction's): one byte
		// of length, patched.
		b = protowire.AppendTag(b, 2, protowire.BytesType)
		at := len(b)
		b = appendAction(append(b, 0), a)
		b[at] = byte(len(b) - at - 1)
	}
	return b
}

// appendAction appends the fields fillAction sets.
func appendAction(b []byte, a table.Action) []byte {
	b = appendUint(b, 1, uint64(pbActionTypes[a.Type]))
	switch a.Type {
	case table.Discard, table.Riichi:
		b = appendString(b, 2, a.Tile.String())
		b = appendBool(b, 4, a.Tsumogiri)
	case table.ClosedKan, table.AddedKan:
		b = appendString(b, 2, a.Tile.String())
	case table.Chi, table.Pon:
		b = protowire.AppendTag(b, 3, protowire.BytesType)
		at := len(b)
		b = tile.AppendInOrder(append(b, 0), a.Tiles[:])
		b[at] = byte(len(b) - at - 1)
	}
	return b
}

// The proto3 encodings of scalar fields: a zero value is left out.

func appendUint(b []byte, num protowire.Number, v uint64) []byte {
	if v == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, v)
}

// appendInt is an int32's or int64's field: negative values are sign
// extended to ten bytes, as proto.Marshal writes them.
func appendInt(b []byte, num protowire.Number, v int64) []byte { return appendUint(b, num, uint64(v)) }

func appendBool(b []byte, num protowire.Number, v bool) []byte {
	if !v {
		return b
	}
	return append(protowire.AppendTag(b, num, protowire.VarintType), 1)
}

func appendString(b []byte, num protowire.Number, s string) []byte {
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(len(s)))
	return append(b, s...)
}

func sizeUint(num protowire.Number, v uint64) int {
	if v == 0 {
		return 0
	}
	return protowire.SizeTag(num) + protowire.SizeVarint(v)
}

func sizeInt(num protowire.Number, v int64) int { return sizeUint(num, uint64(v)) }

// The field numbers MarshalEvent writes (game.proto, table_service.proto;
// the tests compare its bytes with proto.Marshal's).
const (
	fEventSeq        protowire.Number = 1
	fEventTime       protowire.Number = 2
	fEventDrew       protowire.Number = 5
	fEventDiscarded  protowire.Number = 6
	fEventFishing    protowire.Number = 7
	fEventClaimOffer protowire.Number = 8
	fEventTurnOffer  protowire.Number = 16
	fTimeSeconds     protowire.Number = 1 // google.protobuf.Timestamp
	fTimeNanos       protowire.Number = 2
)
