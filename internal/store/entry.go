package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// Codec encodes a game's actions for a durable store. The server supplies
// the riichi table's.
type Codec[A any] interface {
	// AppendAction appends the encoding of a to dst.
	AppendAction(dst []byte, a A) []byte
	// DecodeAction decodes what AppendAction wrote; it must not panic on
	// any input.
	DecodeAction(b []byte) (A, error)
}

// ErrCorrupt is the error of an entry that does not decode.
// It matches host.ErrCorruptLog, so that the host knows the table is
// damaged rather than the store unavailable.
var ErrCorrupt = fmt.Errorf("store: corrupt entry: %w", host.ErrCorruptLog)

// entryVersion is the first byte of every encoded entry; a change of the
// layout takes the next number and keeps decoding the old ones.
const entryVersion = 1

// Limits on what an entry may hold, so that a corrupt length cannot ask for
// gigabytes.
const (
	maxField  = 1 << 10 // names, request ids, entropy
	maxAction = 1 << 12
)

// ErrTooLarge is the error of an entry with a field longer than the store
// reads back: it is refused rather than stored.
var ErrTooLarge = errors.New("store: entry too large")

// AppendEntry appends the encoding of e to dst, or refuses it
// (ErrTooLarge) if DecodeEntry would not read it back: an acknowledged
// entry that does not load would stop recovery. Every durable store
// shares this encoding (package jetstream puts several in one message).
func AppendEntry[A any](dst []byte, c Codec[A], e *host.Entry[A]) ([]byte, error) {
	for _, f := range []struct {
		what string
		n    int
	}{{"request id", len(e.RequestID)}, {"name", len(e.Notice.Name)}, {"entropy", len(e.Entropy)},
		{"player id", len(e.Notice.PlayerID)}, {"ticket id", len(e.TicketID)}} {
		if f.n > maxField {
			return dst, fmt.Errorf("%w: %s of %d bytes, at most %d", ErrTooLarge, f.what, f.n, maxField)
		}
	}
	b, n := appendEntryAction(dst, c, e)
	if n > maxAction {
		return dst, fmt.Errorf("%w: action of %d bytes, at most %d", ErrTooLarge, n, maxAction)
	}
	return b, nil
}

// appendEntry encodes e: version, time (Unix nanoseconds), kind, actor,
// action, request id, notice kind, seat and name, token hash, entropy;
// then, only when one of them is set (so that entries without them keep
// their bytes), the seat data of reservations: player id, ticket id and
// expiry (Unix nanoseconds, 0 for none). Integers are varints; byte
// strings are length-prefixed.
func appendEntry[A any](dst []byte, c Codec[A], e *host.Entry[A]) []byte {
	dst, _ = appendEntryAction(dst, c, e)
	return dst
}

// appendEntryAction is appendEntry that also returns the length of the
// action's encoding.
func appendEntryAction[A any](dst []byte, c Codec[A], e *host.Entry[A]) ([]byte, int) {
	size := 0
	dst = append(dst, entryVersion)
	dst = binary.AppendVarint(dst, e.At.UnixNano())
	dst = append(dst, byte(e.Kind))
	dst = binary.AppendVarint(dst, int64(e.Actor))
	if e.Kind == host.EntryAction {
		start := len(dst)
		dst = append(dst, 0, 0) // the action's length, filled in below
		dst = c.AppendAction(dst, e.Action)
		size = len(dst) - start - 2
		binary.BigEndian.PutUint16(dst[start:], uint16(size))
	} else {
		dst = append(dst, 0, 0)
	}
	dst = appendBytes(dst, []byte(e.RequestID))
	dst = append(dst, byte(e.Notice.Kind))
	dst = binary.AppendVarint(dst, int64(e.Notice.Seat))
	dst = appendBytes(dst, []byte(e.Notice.Name))
	dst = append(dst, e.TokenHash[:]...)
	dst = appendBytes(dst, e.Entropy)
	if e.Notice.PlayerID != "" || e.TicketID != "" || !e.Expires.IsZero() {
		dst = appendBytes(dst, []byte(e.Notice.PlayerID))
		dst = appendBytes(dst, []byte(e.TicketID))
		exp := int64(0)
		if !e.Expires.IsZero() {
			exp = e.Expires.UnixNano()
		}
		dst = binary.AppendVarint(dst, exp)
	}
	return dst, size
}

func appendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// decoder reads an encoded entry, remembering the first error.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: %s", ErrCorrupt, what)
	}
}

func (d *decoder) byte(what string) byte {
	if d.err != nil || len(d.b) < 1 {
		d.fail(what)
		return 0
	}
	v := d.b[0]
	d.b = d.b[1:]
	return v
}

func (d *decoder) varint(what string) int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail(what)
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) take(n int, what string) []byte {
	if d.err != nil || n < 0 || len(d.b) < n {
		d.fail(what)
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) bytes(what string) []byte {
	if d.err != nil {
		return nil
	}
	n, k := binary.Uvarint(d.b)
	if k <= 0 || n > maxField {
		d.fail(what)
		return nil
	}
	d.b = d.b[k:]
	return d.take(int(n), what)
}

// DecodeEntry decodes what AppendEntry wrote; an entry that does not
// decode is an error matching ErrCorrupt.
func DecodeEntry[A any](b []byte, c Codec[A]) (host.Entry[A], error) { return decodeEntry(b, c) }

// decodeEntry decodes what appendEntry wrote.
func decodeEntry[A any](b []byte, c Codec[A]) (host.Entry[A], error) {
	d := decoder{b: b}
	var e host.Entry[A]
	if v := d.byte("version"); d.err == nil && v != entryVersion {
		return e, fmt.Errorf("%w: version %d", ErrCorrupt, v)
	}
	e.At = time.Unix(0, d.varint("time"))
	e.Kind = host.EntryKind(d.byte("kind"))
	e.Actor = int(d.varint("actor"))
	if n := d.take(2, "action length"); d.err == nil {
		size := int(binary.BigEndian.Uint16(n))
		if size > maxAction {
			d.fail("action length")
		}
		if raw := d.take(size, "action"); d.err == nil && e.Kind == host.EntryAction {
			a, err := c.DecodeAction(raw)
			if err != nil {
				return e, fmt.Errorf("%w: action: %w", ErrCorrupt, err)
			}
			e.Action = a
		}
	}
	e.RequestID = string(d.bytes("request id"))
	e.Notice.Kind = host.NoticeKind(d.byte("notice kind"))
	e.Notice.Seat = int(d.varint("notice seat"))
	e.Notice.Name = string(d.bytes("name"))
	copy(e.TokenHash[:], d.take(32, "token hash"))
	if ent := d.bytes("entropy"); len(ent) > 0 {
		e.Entropy = append([]byte(nil), ent...)
	}
	if d.err == nil && len(d.b) > 0 {
		e.Notice.PlayerID = string(d.bytes("player id"))
		e.TicketID = string(d.bytes("ticket id"))
		if exp := d.varint("expiry"); exp != 0 {
			e.Expires = time.Unix(0, exp)
		}
	}
	if d.err == nil && len(d.b) > 0 {
		d.fail("trailing bytes")
	}
	if d.err != nil {
		return host.Entry[A]{}, d.err
	}
	return e, nil
}

// entryRoom is room enough for e's encoding in most cases, so that its
// journal value is one allocation: its strings and the fixed fields
// (varints, an action of a few bytes) in 64.
func entryRoom[A any](e *host.Entry[A]) int {
	return 64 + len(e.RequestID) + len(e.Notice.Name) + len(e.Entropy) + len(e.Notice.PlayerID) + len(e.TicketID) + len(e.TokenHash)
}
