package host

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
)

// history is what rebuild needs to make a table's game again after a
// refused write (the game applied an action the store did not take): the
// game's state it starts from - nil, the game's start, unless the table
// was recovered from a snapshot - and the actions accepted since, in
// order.
//
// Why not the game's state at the latest snapshot taken, as before: that
// state holds the game's record so far, so a table late in its game held
// its record twice (the game's own and these bytes), tens of KB a table.
// The actions since the start are a few KB: a move encodes in a few bytes,
// and a refused write, the only reader, is rare enough to replay a whole
// game, as recovery without a snapshot does. A table recovered from a snapshot has no
// actions before it, so it keeps the snapshot's game part, of the size it
// had then; it does not grow as the game goes on.
//
// The encoded actions are kept in pieces: those of the rounds sealed (at
// each snapshot), each piece exactly sized, and the round in play's in a
// buffer that grows and is reused. One slice grown by append through a
// whole game would keep up to a quarter more than it holds, a few KB a
// table.
type history[A comparable] struct {
	codec  actionCodec[A] // nil: plain holds the actions
	base   []byte         // the game's state the actions follow; nil: the start
	sealed [][]byte       // the actions of the rounds sealed, encoded as packed
	packed []byte         // each action since encoded by codec, after its length (uvarint)
	plain  []A
	gone   bool // dropped: the game is over, and takes no more actions
}

// actionCodec is the part of Codec that history uses.
type actionCodec[A any] interface {
	AppendAction(dst []byte, a A) []byte
	DecodeAction(b []byte) (A, error)
}

// add appends an accepted action.
func (h *history[A]) add(a A) {
	if h.codec == nil {
		h.plain = append(h.plain, a)
		return
	}
	// The length goes first, one byte for any action under 128 bytes:
	// room for it, the action after it, then the length set (moved up in
	// the rare case that it takes more bytes).
	at := len(h.packed)
	h.packed = h.codec.AppendAction(append(h.packed, 0), a)
	n := len(h.packed) - at - 1
	if n < 0x80 {
		h.packed[at] = byte(n)
		return
	}
	var l [binary.MaxVarintLen64]byte
	w := binary.PutUvarint(l[:], uint64(n))
	h.packed = append(h.packed, l[1:w]...)
	copy(h.packed[at+w:], h.packed[at+1:at+1+n])
	copy(h.packed[at:], l[:w])
}

// reset starts the history again from the game's state base (nil: the
// start); it keeps base.
func (h *history[A]) reset(base []byte) {
	h.base, h.sealed, h.packed, h.plain = base, nil, nil, nil
}

// seal keeps the actions encoded so far in a piece of their own, exactly
// sized, and reuses the buffer for the next ones.
func (h *history[A]) seal() {
	if len(h.packed) == 0 {
		return
	}
	h.sealed = append(h.sealed, bytes.Clone(h.packed))
	h.packed = h.packed[:0]
}

// drop lets the history go once the game is over: no action can be
// refused a write after that, and a finished table stays in memory for
// FinishedTTL. each fails after it.
func (h *history[A]) drop() {
	*h = history[A]{codec: h.codec, gone: true}
}

// errDropped is each's error after drop.
var errDropped = errors.New("history dropped at the end of the game")

// each calls f with every action, in order, until f fails.
func (h *history[A]) each(f func(i int, a A) error) error {
	if h.gone {
		return errDropped
	}
	if h.codec == nil {
		for i, a := range h.plain {
			if err := f(i, a); err != nil {
				return err
			}
		}
		return nil
	}
	i := 0
	for _, b := range append(slices.Clip(h.sealed), h.packed) {
		for ; len(b) > 0; i++ {
			n, w := binary.Uvarint(b)
			if w <= 0 || uint64(len(b)-w) < n {
				return fmt.Errorf("action %d: %w", i, errors.New("history cut short"))
			}
			a, err := h.codec.DecodeAction(b[w : w+int(n)])
			if err != nil {
				return fmt.Errorf("action %d: %w", i, err)
			}
			if err := f(i, a); err != nil {
				return err
			}
			b = b[w+int(n):]
		}
	}
	return nil
}
