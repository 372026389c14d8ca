// Package encoded sends a protobuf message that was encoded once to many
// streams: a Message is the encoding of a numbered event - a wrapper
// message whose one field holds the event, whose field 1 is the viewer's
// sequence number and whose other fields are the same for every viewer -
// spliced from a few bytes of its own and the bytes every viewer shares.
//
// The package registers a gRPC codec for "proto" (the default) that sends
// a *Message's bytes as they are and encodes everything else as grpc-go's
// own codec does. A Message is also a proto.Message, decoded from its
// bytes on demand, for any other codec (Connect JSON through the
// gateway) and for tests: what goes on the wire is in every case the
// message proto.Marshal would have written.
package encoded

import (
	"fmt"
	"sync/atomic"

	"google.golang.org/grpc/encoding"
	grpcproto "google.golang.org/grpc/encoding/proto"
	"google.golang.org/grpc/mem"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Message is a wrapper message, encoded: field Outer of the wrapper holds
// a message made of field 1 (the viewer's Seq, a varint) followed by
// Shared. It is built per viewer (a few dozen bytes) around the bytes
// every viewer shares.
type Message struct {
	head [2*binaryVarintLen + 2]byte
	// What Marshal returns: the head and the shared bytes, each a
	// *mem.SliceBuffer into the Message itself, so that making the
	// buffers allocates nothing (a SliceBuffer boxed by value would be
	// a copy on the heap). slices[1] is the shared bytes.
	slices [2]mem.SliceBuffer
	bufs   [2]mem.Buffer

	// The decoded message, made on demand: kept apart, so that the
	// Message gRPC sends - one per viewer of every event - stays small.
	lazy
}

// lazy is a message decoded from its bytes at the first call, for the
// codecs and callers that want a proto.Message rather than the bytes.
type lazy struct {
	newMsg func() proto.Message
	dec    atomic.Pointer[decoding]
}

type decoding struct {
	msg proto.Message
	err error
}

// decode decodes the bytes enc returns at the first call (two calls at
// once may both decode; the first result is kept).
func (l *lazy) decode(enc func() []byte) (proto.Message, error) {
	if d := l.dec.Load(); d != nil {
		return d.msg, d.err
	}
	d := &decoding{msg: l.newMsg()}
	if err := proto.Unmarshal(enc(), d.msg); err != nil {
		d.err = fmt.Errorf("encoded: decode %T: %w", d.msg, err)
		d.msg = nil
	}
	if !l.dec.CompareAndSwap(nil, d) {
		d = l.dec.Load()
	}
	return d.msg, d.err
}

// reflect is the decoded message's reflection. Bytes that do not decode
// (a bug of the caller) reflect an empty message.
func (l *lazy) reflect(enc func() []byte) protoreflect.Message {
	msg, err := l.decode(enc)
	if err != nil {
		return l.newMsg().ProtoReflect()
	}
	return msg.ProtoReflect()
}

const binaryVarintLen = 10

// Numbered is the encoding of a message of newMsg's type whose field
// outer is a message with seq in its field 1 and then the fields encoded
// in shared (which must not hold field 1, and is not copied: it must not
// change after). Seq 0 is not written, as proto3 leaves a zero out.
func Numbered(newMsg func() proto.Message, outer protowire.Number, seq uint64, shared []byte) *Message {
	m := &Message{}
	m.Set(newMsg, outer, seq, shared)
	return m
}

// Set makes m what Numbered returns, in place, forgetting what m was: a
// sender that hands one Message on and has it back before the next - a
// Multiplex feed's drain, whose send copies the bytes into its batch -
// numbers every event in it instead of allocating one per viewer and
// event. A Message that gRPC sends must not be Set again: its bytes are
// written later.
func (m *Message) Set(newMsg func() proto.Message, outer protowire.Number, seq uint64, shared []byte) {
	m.newMsg = newMsg
	m.dec.Store(nil)
	m.bufs = [2]mem.Buffer{}
	inner := len(shared)
	if seq != 0 {
		inner += 1 + protowire.SizeVarint(seq)
	}
	b := protowire.AppendTag(m.head[:0], outer, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(inner))
	if seq != 0 {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, seq)
	}
	m.slices = [2]mem.SliceBuffer{b, shared}
}

// Seq is the viewer's sequence number spliced in, read back from the
// head (a Message keeps no more fields: one is made for every viewer of
// every event).
func (m *Message) Seq() uint64 {
	b := []byte(m.slices[0])
	// The outer field's tag and length, then field 1 when seq is not 0.
	_, _, n := protowire.ConsumeTag(b)
	if n < 0 {
		return 0
	}
	b = b[n:]
	_, n = protowire.ConsumeVarint(b)
	if n < 0 {
		return 0
	}
	b = b[n:]
	if num, typ, n := protowire.ConsumeTag(b); n > 0 && num == 1 && typ == protowire.VarintType {
		seq, m := protowire.ConsumeVarint(b[n:])
		if m > 0 {
			return seq
		}
	}
	return 0 // seq 0 is not written
}

// Len is the size of the encoding.
func (m *Message) Len() int { return len(m.slices[0]) + len(m.slices[1]) }

// AppendTo appends the encoding to b.
func (m *Message) AppendTo(b []byte) []byte { return append(append(b, m.slices[0]...), m.slices[1]...) }

// Decode is the message the bytes encode, decoded at the first call.
func (m *Message) Decode() (proto.Message, error) { return m.decode(m.bytes) }

// ProtoReflect makes a Message a proto.Message: the decoded message's.
func (m *Message) ProtoReflect() protoreflect.Message { return m.reflect(m.bytes) }

func (m *Message) bytes() []byte { return m.AppendTo(make([]byte, 0, m.Len())) }

// Whole is a message encoded whole by its sender (a batch composed of
// pieces encoded already, such as Messages) in a buffer of a pool: the
// codec sends the buffer as it is and gives it back to the pool once
// gRPC has written it, so it must be sent once and not touched after.
type Whole struct {
	buf  *[]byte
	pool mem.BufferPool
	lazy
}

// NewWhole is the message of newMsg's type encoded in *buf, which came
// from pool (Get) and which the Whole now owns.
func NewWhole(newMsg func() proto.Message, buf *[]byte, pool mem.BufferPool) *Whole {
	return &Whole{buf: buf, pool: pool, lazy: lazy{newMsg: newMsg}}
}

// Bytes is the encoding, until the Whole is sent.
func (w *Whole) Bytes() []byte { return *w.buf }

// Decode is the message the bytes encode, decoded once (before it is
// sent).
func (w *Whole) Decode() (proto.Message, error) { return w.decode(w.Bytes) }

// ProtoReflect makes a Whole a proto.Message, as a Message is one.
func (w *Whole) ProtoReflect() protoreflect.Message { return w.reflect(w.Bytes) }

// Codec is grpc-go's codec for "proto" with one difference: a *Message is
// sent as its bytes, the shared part without a copy.
type Codec struct {
	// Base encodes everything else.
	Base encoding.CodecV2
}

// Marshal encodes v. A *Message is sent once (its buffers are its own).
func (c Codec) Marshal(v any) (mem.BufferSlice, error) {
	if m, ok := v.(*Message); ok {
		m.bufs = [2]mem.Buffer{&m.slices[0], &m.slices[1]}
		return m.bufs[:], nil
	}
	if w, ok := v.(*Whole); ok {
		return mem.BufferSlice{mem.NewBuffer(w.buf, w.pool)}, nil
	}
	return c.Base.Marshal(v)
}

// Unmarshal decodes data into v as Base does; a *Merge is decoded into
// its message as it is, not reset first.
func (c Codec) Unmarshal(data mem.BufferSlice, v any) error {
	if m, ok := v.(*Merge); ok {
		buf := data.MaterializeToBuffer(mem.DefaultBufferPool())
		defer buf.Free()
		return proto.UnmarshalOptions{Merge: true}.Unmarshal(buf.ReadOnlyData(), m.Message)
	}
	return c.Base.Unmarshal(data, v)
}

// Merge is a message to decode a received one into without resetting it
// first (proto.UnmarshalOptions.Merge): a reader that reuses messages
// sets them in it, cleared, and the decoding fills them instead of
// allocating new ones (a field it does not find keeps what was there, so
// the reader clears everything itself). Another codec (JSON) decodes into
// the Message as usual, resetting it.
type Merge struct{ proto.Message }

// Name is "proto": the codec replaces the default.
func (Codec) Name() string { return grpcproto.Name }

// grpc-go takes codecs from its registry by content subtype, and a codec
// must be registered at init. This one wraps the proto codec registered
// by grpc-go's encoding/proto, whose init runs before this package's.
func init() {
	encoding.RegisterCodecV2(Codec{Base: encoding.GetCodecV2(grpcproto.Name)})
}
