// Package rounds keeps the finished rounds of a game being recorded (its
// hands, its deals) encoded, for the recorders whose record and snapshot
// are JSON. A table's recorder lives as long as the table, and a round,
// once finished, changes no more: kept as its JSON it costs a third to a
// half of its decoded form, and it is decoded only when a record is asked
// for, into values the recorder does not keep.
package rounds

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Encoded is a game's finished rounds of type T, each kept as its JSON
// encoding from when it ends. Its JSON is the array of the rounds, as a
// []T's is, so a snapshot holding it reads as one holding the rounds. The
// zero value holds no round.
type Encoded[T any] struct {
	raw []json.RawMessage
}

// Append encodes v, a round that ended, after the others.
func (e *Encoded[T]) Append(v *T) error {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("round %d: %w", len(e.raw), err)
	}
	e.raw = append(e.raw, b)
	return nil
}

// Len is the number of rounds.
func (e *Encoded[T]) Len() int { return len(e.raw) }

// Decode returns the rounds, decoded into a new slice (never nil) that
// shares nothing with e. The rounds e holds were encoded by Append or
// checked by UnmarshalJSON, so an error means a bug, and the rounds
// before the one that failed are returned with it.
func (e *Encoded[T]) Decode() ([]T, error) {
	out := make([]T, len(e.raw))
	for i, raw := range e.raw {
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
	if err := json.Unmarshal(e.raw[len(e.raw)-1], &v); err != nil {
		return v, fmt.Errorf("round %d: %w", len(e.raw)-1, err)
	}
	return v, nil
}

// MarshalJSON writes the rounds as a JSON array: their encodings, not
// encoded again.
func (e Encoded[T]) MarshalJSON() ([]byte, error) {
	n := 2
	for _, raw := range e.raw {
		n += len(raw) + 1
	}
	b := make([]byte, 0, n)
	b = append(b, '[')
	for i, raw := range e.raw {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, raw...)
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
	for i, r := range raw {
		var v T
		if err := json.Unmarshal(r, &v); err != nil {
			return fmt.Errorf("round %d: %w", i, err)
		}
	}
	e.raw = raw
	return nil
}
