package client

import (
	"errors"
	"fmt"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// A Mux reads its stream's messages (MultiplexResponse) as frames: the
// items' envelopes - MultiplexItem, MultiplexEvent, StreamEventsResponse,
// MultiplexAnswer, MultiplexEnd - are read in place, and what a seat
// needs of an item (its snapshot or event) stays encoded until the
// seat's own goroutine takes it. Decoding the envelopes with package
// proto cost seven allocations an event and most of the decoding time of
// a load generator's reader; the one reader of a connection then does
// little more than hand bytes on.
//
// The fast path reads the encoding every protobuf encoder writes: each
// field of an envelope once. Anything else that is valid protobuf (a
// field repeated, which proto merges or replaces) is decoded by package
// proto and its parts encoded again, so a frame always means what
// proto.Unmarshal would make of it; bytes that are not protobuf are an
// error, as proto's.

// muxFrame is one MultiplexResponse: its bytes and its items. The items
// point into the bytes, which are the frame's own (a seat's queue keeps
// them).
type muxFrame struct {
	b     []byte
	items []muxItem // reused from frame to frame by the reader
}

// muxItem kinds.
const (
	itemNone   = iota // an item of no kind this client knows: dropped
	itemEvent         // a follow's snapshot or event
	itemAnswer        // an action's answer
	itemEnd           // a follow's end
)

// muxItem is one MultiplexItem, its parts still encoded.
type muxItem struct {
	kind int
	ref  uint32 // of an event or an end
	call uint64 // of an answer
	// An event's StreamEventsResponse: its snapshot or its event (the
	// other nil; both nil for an empty one).
	snap, event []byte
	// An answer's response (seq) when it has one.
	seq uint64
	// An answer's error or an end's status, nil when it has none: decoded
	// with the frame (they are rare).
	st *spb.Status
}

// muxCodec is gRPC's codec for "proto" with one difference: a *muxFrame
// is read as a frame. Everything else goes to the codec registered for
// "proto".
type muxCodec struct{}

func (muxCodec) Name() string { return grpcproto.Name }

func (muxCodec) Marshal(v any) (mem.BufferSlice, error) {
	if a, ok := v.(*muxAct); ok {
		return marshalMuxAct(a)
	}
	return encoding.GetCodecV2(grpcproto.Name).Marshal(v)
}

func (muxCodec) Unmarshal(data mem.BufferSlice, v any) error {
	f, ok := v.(*muxFrame)
	if !ok {
		return encoding.GetCodecV2(grpcproto.Name).Unmarshal(data, v)
	}
	// The buffers are gRPC's, given back after this call: the frame gets
	// its own copy, which the seats' queues may keep.
	f.b = data.Materialize()
	return f.read()
}

// errIrregular is readFrame's word that a frame is valid protobuf but not
// as the fast path reads it.
var errIrregular = errors.New("client: irregular multiplex frame")

// read reads f.b into f.items.
func (f *muxFrame) read() error {
	f.items = f.items[:0]
	err := readFrame(f.b, func(it muxItem) { f.items = append(f.items, it) })
	if errors.Is(err, errIrregular) {
		f.items = f.items[:0]
		err = f.readSlow()
	}
	if err != nil {
		return fmt.Errorf("client: multiplex response: %w", err)
	}
	return nil
}

// readSlow reads a frame with package proto, and encodes the parts of its
// items again.
func (f *muxFrame) readSlow() error {
	var r pb.MultiplexResponse
	if err := proto.Unmarshal(f.b, &r); err != nil {
		return err
	}
	for _, it := range r.GetItems() {
		var m muxItem
		var err error
		switch k := it.GetKind().(type) {
		case *pb.MultiplexItem_Event:
			m.kind, m.ref = itemEvent, k.Event.GetRef()
			if s := k.Event.GetEvent().GetSnapshot(); s != nil {
				m.snap, err = proto.Marshal(s)
				m.snap = nonNil(m.snap)
			} else if e := k.Event.GetEvent().GetEvent(); e != nil {
				m.event, err = proto.Marshal(e)
				m.event = nonNil(m.event)
			}
		case *pb.MultiplexItem_Answer:
			m.kind, m.call = itemAnswer, k.Answer.GetCall()
			m.seq = k.Answer.GetResponse().GetSeq()
			m.st = k.Answer.GetError()
		case *pb.MultiplexItem_End:
			m.kind, m.ref = itemEnd, k.End.GetRef()
			m.st = k.End.GetStatus()
		}
		if err != nil {
			return err
		}
		f.items = append(f.items, m)
	}
	return nil
}

// nonNil is b, or an empty slice for nil: an empty message is still
// there.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// readFrame reads a MultiplexResponse's items in place and hands each to
// add. It returns errIrregular for valid protobuf it does not read (a
// field of an envelope given twice), or an error of bytes that are not
// protobuf.
func readFrame(b []byte, add func(muxItem)) error {
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num != 1 {
			return nil // unknown: skipped, as proto keeps it unknown
		}
		if typ != protowire.BytesType {
			return errIrregular
		}
		var it muxItem
		if err := readItem(v, &it); err != nil {
			return err
		}
		add(it)
		return nil
	})
}

// readItem reads a MultiplexItem.
func readItem(b []byte, it *muxItem) error {
	var seen uint8
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
		if num < 1 || num > 3 {
			return nil
		}
		if typ != protowire.BytesType || seen != 0 {
			// A kind given twice: proto merges or replaces.
			return errIrregular
		}
		seen = 1
		switch num {
		case 1:
			it.kind = itemEvent
			return readEvent(v, it)
		case 2:
			it.kind = itemAnswer
			return readAnswer(v, it)
		default:
			it.kind = itemEnd
			return readEnd(v, it)
		}
	})
}

// readEvent reads a MultiplexEvent and its StreamEventsResponse.
func readEvent(b []byte, it *muxItem) error {
	return readParts(b, 1<<2, func(x uint64) { it.ref = uint32(x) }, func(_ protowire.Number, v []byte) error {
		var inner uint8
		return fields(v, func(num protowire.Number, typ protowire.Type, v []byte, _ uint64) error {
			if num != 1 && num != 2 {
				return nil
			}
			if typ != protowire.BytesType || inner != 0 {
				return errIrregular
			}
			inner = 1
			if num == 1 {
				it.snap = nonNil(v)
			} else {
				it.event = nonNil(v)
			}
			return nil
		})
	})
}

// readAnswer reads a MultiplexAnswer.
func readAnswer(b []byte, it *muxItem) error {
	return readParts(b, 1<<2|1<<3, func(x uint64) { it.call = x }, func(num protowire.Number, v []byte) error {
		if num == 3 {
			return readStatus(v, it)
		}
		// ActResponse: seq, a scalar.
		return fields(v, func(num protowire.Number, typ protowire.Type, _ []byte, x uint64) error {
			if num == 1 && typ == protowire.VarintType {
				it.seq = x
			}
			return nil
		})
	})
}

// readEnd reads a MultiplexEnd.
func readEnd(b []byte, it *muxItem) error {
	return readParts(b, 1<<2, func(x uint64) { it.ref = uint32(x) }, func(_ protowire.Number, v []byte) error {
		return readStatus(v, it)
	})
}

// readParts reads the shape the Multiplex items share: field 1 a varint
// id, handed to id (the last one counts, as in proto), and message fields
// among 2-7, those of the set parts (bit n: field n) handed to part. A
// part given twice is errIrregular (proto merges or replaces it); other
// fields are skipped, as proto keeps them unknown.
func readParts(b []byte, parts uint8, id func(uint64), part func(num protowire.Number, v []byte) error) error {
	var seen uint8 // bit n: field n read
	return fields(b, func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error {
		switch {
		case num == 1 && typ == protowire.VarintType:
			id(x)
			return nil
		case num < 2 || num > 7 || parts&(1<<num) == 0:
			return nil
		case typ != protowire.BytesType || seen&(1<<num) != 0:
			return errIrregular
		}
		seen |= 1 << num
		return part(num, v)
	})
}

// readStatus decodes an answer's error or an end's status.
func readStatus(b []byte, it *muxItem) error {
	it.st = &spb.Status{}
	return proto.Unmarshal(b, it.st)
}

// fields calls f with each field of the message b: its number, its wire
// type, and its bytes (BytesType) or value (VarintType). A known field
// with another wire type than its own is errIrregular (proto would fail
// or skip it). Groups are skipped.
func fields(b []byte, f func(num protowire.Number, typ protowire.Type, v []byte, x uint64) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		if num > protowire.MaxValidNumber {
			return errors.New("client: field number out of range")
		}
		b = b[n:]
		var v []byte
		var x uint64
		switch typ {
		case protowire.VarintType:
			x, n = protowire.ConsumeVarint(b)
		case protowire.BytesType:
			v, n = protowire.ConsumeBytes(b)
		default:
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ != protowire.VarintType && typ != protowire.BytesType {
			if num >= 1 && num <= 3 {
				return errIrregular
			}
			continue
		}
		if err := f(num, typ, v, x); err != nil {
			return err
		}
	}
	return nil
}
