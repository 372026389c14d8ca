// Package rounds keeps the finished rounds of a game being recorded (its
// hands, its deals) encoded, for the recorders whose record and snapshot
// are JSON. A table's recorder lives as long as the table, and a round,
// once finished, changes no more: kept as its JSON, deflated (package
// squeeze), it costs a small part of its decoded form (its JSON alone is
// a third to a half), and it is decoded only when a record or a snapshot
// is asked for, into values the recorder does not keep.
package rounds

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/record/squeeze"
)

// maxRound bounds a round's JSON as Expand reads it back; rounds are far
// smaller (a few KB).
const maxRound = 1 << 24

// Encoded is a game's finished rounds of type T, each kept as its JSON
// encoding from when it ends, squeezed. Its own JSON holds them so
// (MarshalJSON); it reads that, or the array of the rounds, as a []T's
// JSON is. The zero value holds no round.
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

// squeezedJSON is the JSON of Encoded: each round's JSON squeezed, in
// base64. A snapshot is written at every round's end and holds all the
// rounds so far, so it copies them as they are kept rather than expanding
// them all each time (most of the cost of a snapshot late in a game).
type squeezedJSON struct {
	Squeezed [][]byte `json:"squeezed"`
}

// MarshalJSON writes the rounds as they are kept: an object whose
// "squeezed" lists each round's JSON squeezed (package squeeze), base64.
func (e Encoded[T]) MarshalJSON() ([]byte, error) {
	sq := squeezedJSON{Squeezed: e.raw}
	if sq.Squeezed == nil {
		sq.Squeezed = [][]byte{} // [], not null: no round
	}
	return json.Marshal(sq)
}

// UnmarshalJSON reads what MarshalJSON writes, or a JSON array of rounds
// (null: none) as a []T's JSON is (a Game's, and the snapshots written
// before rounds were kept squeezed), keeping each round squeezed once it
// has checked that it decodes as a T.
func (e *Encoded[T]) UnmarshalJSON(b []byte) error {
	if t := bytes.TrimLeft(b, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		var sq struct {
			Squeezed *[][]byte `json:"squeezed"`
		}
		if err := json.Unmarshal(b, &sq); err != nil {
			return err
		}
		if sq.Squeezed == nil {
			return errors.New("rounds: no squeezed rounds")
		}
		got := Encoded[T]{raw: *sq.Squeezed}
		for i := range got.raw {
			raw, err := got.json(nil, i)
			if err != nil {
				return err
			}
			var v T
			if err := json.Unmarshal(raw, &v); err != nil {
				return fmt.Errorf("round %d: %w", i, err)
			}
		}
		*e = got
		return nil
	}
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
