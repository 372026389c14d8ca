// Package squeeze compresses the finished rounds a recorder keeps for the
// rest of its game. A table's record so far lives as long as the table,
// and a round, once finished, is read again only for an export or a
// snapshot, so it is kept deflated: its encodings (tile strings, action
// names, JSON keys) repeat within a round and shrink to a half (riichi's
// binary rounds) or two fifths (the JSON hands) of their size. Only what
// Squeeze wrote in this process is ever expanded: rounds read from a
// snapshot come plain and are squeezed here, so nothing from outside
// reaches the inflater.
package squeeze

import (
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"sync"
)

// ErrTooLarge is returned by Expand when the round would exceed its bound.
var ErrTooLarge = errors.New("squeeze: expanded round too large")

// A flate writer holds hundreds of KB of tables: one per round would be
// most of the garbage of a round's end, so they are pooled, as are the
// readers.
var (
	writers = sync.Pool{New: func() any {
		w, err := flate.NewWriter(nil, flate.BestSpeed)
		if err != nil {
			panic(err) // BestSpeed is a valid level
		}
		return w
	}}
	readers = sync.Pool{New: func() any { return flate.NewReader(bytes.NewReader(nil)) }}
	scratch = sync.Pool{New: func() any { return new(buffer) }}
)

// buffer is an io.Writer appending to a slice.
type buffer struct{ b []byte }

func (w *buffer) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// Squeeze returns src deflated, in a slice of its own of exactly that
// size: it is kept for the rest of a game.
func Squeeze(src []byte) []byte {
	buf := scratch.Get().(*buffer)
	w := writers.Get().(*flate.Writer)
	w.Reset(buf)
	// Writes to a buffer cannot fail.
	_, _ = w.Write(src)
	_ = w.Close()
	writers.Put(w)
	out := bytes.Clone(buf.b)
	buf.b = buf.b[:0]
	scratch.Put(buf)
	return out
}

// Expand appends to dst what Squeeze squeezed into src, at most max bytes
// of it.
func Expand(dst, src []byte, max int) ([]byte, error) {
	r := readers.Get().(io.ReadCloser)
	defer readers.Put(r)
	if err := r.(flate.Resetter).Reset(bytes.NewReader(src), nil); err != nil {
		return dst, fmt.Errorf("squeeze: %w", err)
	}
	start := len(dst)
	for {
		if len(dst) == cap(dst) {
			dst = append(dst, 0)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if len(dst)-start > max {
			return dst[:start], ErrTooLarge
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return dst[:start], fmt.Errorf("squeeze: %w", err)
		}
	}
}
