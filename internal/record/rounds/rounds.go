// Package rounds keeps the finished rounds of a game being recorded (its
// hands, its deals) encoded, for the recorders whose record and snapshot
// are JSON. A table's recorder lives as long as the table, and a round,
// once finished, changes no more: kept as its JSON, deflated (package
// squeeze), it costs a small part of its decoded form (its JSON alone is
// a third to a half), and it is decoded only when a record or a snapshot
// is asked for, into values the recorder does not keep.
package rounds

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/record/squeeze"
)

// maxRound bounds a round's JSON as Expand reads it back; rounds are far
// smaller (a few KB).
const maxRound = 1 << 24

// Encoded is a game's finished rounds of type T, each kept as its JSON
// encoding from when it ends, squeezed. Its JSON is the array of the rounds, as a
// []T's is, so a snapshot holding it reads as one holding the rounds. The
// zero value holds no round.
type Encoded[T any] struct {
	raw [][]byte // each round's JSON, squeezed
}

// Append encodes v, a round that ended, after the others.
func (e *Encoded[T]) Append(v *T) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("round %d: %w", len(e.raw), err)
	}
	e.raw = append(e.raw, squeeze.Squeeze(b))
	return nil
}

// json returns round i's JSON, appended to dst.
func (e *Encoded[T]) json(dst []byte, i int) ([]byte, error) {
	b, err := squeeze.Expand(dst, e.raw[i], maxRound)
	if err != nil {
		return dst, fmt.Errorf("round %d: %w", i, err)
	}
	return b, nil
}

// Len is the number of rounds.
func (e *Encoded[T]) Len() int { return len(e.raw) }

// Decode returns the rounds, decoded into a new slice (never nil) that
// shares nothing with e. The rounds e holds were encoded by Append or
// checked by UnmarshalJSON, so an error means a bug, and the rounds
// before the one that failed are returned with it.
func (e *Encoded[T]) Decode() ([]T, error) {
	out := make([]T, len(e.raw))
	var raw []byte
	for i := range e.raw {
		var err error
		if raw, err = e.json(raw[:0], i); err != nil {
			return out[:i], err
		}
		if err := json.Unmarshal(raw, &out[i]); err != nil {
			return out[:i], fmt.Errorf("round %d: %w", i, err)
		}
	}
	return out, nil
}

// Last returns the last round, decoded; it fails if there is none.
func (e *Encoded[T]) Last() (T, error) {
	var v T
	if len(e.raw) == 0 {
		return v, errors.New("no round")
	}
	raw, err := e.json(nil, len(e.raw)-1)
	if err != nil {
		return v, err
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return v, fmt.Errorf("round %d: %w", len(e.raw)-1, err)
	}
	return v, nil
}

// MarshalJSON writes the rounds as a JSON array: their encodings,
// expanded, not encoded again.
func (e Encoded[T]) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i := range e.raw {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = e.json(b, i); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads a JSON array of rounds (null: none), keeping each
// encoded once it has checked that it decodes as a T.
func (e *Encoded[T]) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	kept := make([][]byte, len(raw))
	for i, r := range raw {
		var v T
		if err := json.Unmarshal(r, &v); err != nil {
			return fmt.Errorf("round %d: %w", i, err)
		}
		kept[i] = squeeze.Squeeze(r)
	}
	e.raw = kept
	return nil
}
