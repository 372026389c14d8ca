// Package pack is the compact binary encoding the snapshots are written in
// (the table's, its record's, the host's): varints, bytes prefixed with
// their length, and a Reader that remembers its first error, so a decoder
// reads field after field and checks once at the end. Writers append with
// encoding/binary's AppendUvarint and AppendVarint and the helpers here.
//
// Every length a Reader accepts is bounded by its caller, so corrupt input
// cannot ask for gigabytes, and no input makes it panic.
package pack

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// ErrCorrupt is what every error of a Reader matches.
var ErrCorrupt = errors.New("pack: corrupt encoding")

// AppendBytes appends b prefixed with its length.
func AppendBytes(dst, b []byte) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(b)))
	return append(dst, b...)
}

// AppendString appends s prefixed with its length.
func AppendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// AppendInt appends v as a signed varint.
func AppendInt(dst []byte, v int) []byte { return binary.AppendVarint(dst, int64(v)) }

// AppendUint appends v as an unsigned varint.
func AppendUint(dst []byte, v uint64) []byte { return binary.AppendUvarint(dst, v) }

// AppendBool appends v as one byte.
func AppendBool(dst []byte, v bool) []byte {
	if v {
		return append(dst, 1)
	}
	return append(dst, 0)
}

// Reader decodes what the Append functions wrote. After its first error
// every read returns a zero value; Err reports that error.
type Reader struct {
	b   []byte
	err error
}

// NewReader returns a Reader of b.
func NewReader(b []byte) *Reader { return &Reader{b: b} }

// Err is the first error, nil if every read so far succeeded.
func (r *Reader) Err() error { return r.err }

// Len is how many bytes are left.
func (r *Reader) Len() int { return len(r.b) }

// Fail records err (wrapped in ErrCorrupt) unless an error came first: a
// decoder's own check of a value it read.
func (r *Reader) Fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf("%w: %s", ErrCorrupt, fmt.Sprintf(format, args...))
	}
}

// Done fails if bytes are left over, and returns Err.
func (r *Reader) Done() error {
	if r.err == nil && len(r.b) > 0 {
		r.Fail("%d trailing bytes", len(r.b))
	}
	return r.err
}

// Byte reads one byte.
func (r *Reader) Byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if len(r.b) < 1 {
		r.Fail("%s: truncated", what)
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// Bool reads a byte that must be 0 or 1.
func (r *Reader) Bool(what string) bool {
	switch v := r.Byte(what); v {
	case 0:
		return false
	case 1:
		return true
	default:
		r.Fail("%s: boolean %d", what, v)
		return false
	}
}

// Uint reads an unsigned varint no larger than max.
func (r *Reader) Uint(what string, max uint64) uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.Fail("%s: bad varint", what)
		return 0
	}
	r.b = r.b[n:]
	if v > max {
		r.Fail("%s: %d, at most %d", what, v, max)
		return 0
	}
	return v
}

// Int reads a signed varint in [min, max].
func (r *Reader) Int(what string, min, max int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.Fail("%s: bad varint", what)
		return 0
	}
	r.b = r.b[n:]
	if v < int64(min) || v > int64(max) {
		r.Fail("%s: %d not in [%d, %d]", what, v, min, max)
		return 0
	}
	return int(v)
}

// Count reads a length or a count no larger than max.
func (r *Reader) Count(what string, max int) int { return int(r.Uint(what, uint64(max))) }

// Fixed reads the next n bytes; the result aliases the input.
func (r *Reader) Fixed(what string, n int) []byte {
	if r.err != nil {
		return nil
	}
	if n < 0 || len(r.b) < n {
		r.Fail("%s: truncated", what)
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// Bytes reads bytes prefixed with their length, at most max of them; the
// result aliases the input.
func (r *Reader) Bytes(what string, max int) []byte {
	n := r.Count(what, max)
	return r.Fixed(what, n)
}

// String reads a string prefixed with its length, at most max bytes.
func (r *Reader) String(what string, max int) string { return string(r.Bytes(what, max)) }
