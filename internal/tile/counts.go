package tile

import (
	"iter"
	"math/bits"
	"strings"
)

// Counts holds how many tiles of each playing kind a hand has. Flowers are
// never part of a hand's shape and are not counted. The zero value is an
// empty hand.
type Counts [NumKinds]uint8

// CountsOf counts the tiles of ts. Flowers are ignored.
func CountsOf(ts []Tile) Counts {
	var c Counts
	for _, t := range ts {
		if k := t.Kind(); k < NumKinds {
			c[k]++
		}
	}
	return c
}

// Total is the number of tiles counted.
func (c *Counts) Total() int {
	n := 0
	for _, v := range c {
		n += int(v)
	}
	return n
}

// Kinds returns the set of kinds held at least once.
func (c *Counts) Kinds() KindSet {
	var s KindSet
	for k, v := range c {
		if v != 0 {
			s |= 1 << k
		}
	}
	return s
}

// String writes the counted tiles in sorted MPSZ notation ("123m55z").
func (c *Counts) String() string {
	var b strings.Builder
	for s := Man; s <= Honor; s++ {
		wrote := false
		for k := Kind(0); k < NumKinds; k++ {
			if k.Suit() != s {
				continue
			}
			for range c[k] {
				b.WriteByte(byte('0' + k.Number()))
				wrote = true
			}
		}
		if wrote {
			b.WriteByte(s.Letter())
		}
	}
	return b.String()
}

// KindSet is a set of kinds, one bit per kind (bit k for Kind k), flowers
// included. The zero value is the empty set. Waits are KindSets.
type KindSet uint64

// SetOf returns the set of the given kinds.
func SetOf(ks ...Kind) KindSet {
	var s KindSet
	for _, k := range ks {
		s = s.With(k)
	}
	return s
}

// Has reports whether k is in the set.
func (s KindSet) Has(k Kind) bool { return k < 64 && s&(1<<k) != 0 }

// With returns the set with k added.
func (s KindSet) With(k Kind) KindSet { return s | 1<<k }

// Without returns the set with k removed.
func (s KindSet) Without(k Kind) KindSet { return s &^ (1 << k) }

// Len is the number of kinds in the set.
func (s KindSet) Len() int { return bits.OnesCount64(uint64(s)) }

// All yields the kinds of the set in order.
func (s KindSet) All() iter.Seq[Kind] {
	return func(yield func(Kind) bool) {
		for v := uint64(s); v != 0; v &= v - 1 {
			if !yield(Kind(bits.TrailingZeros64(v))) {
				return
			}
		}
	}
}

// String writes the set in sorted MPSZ notation ("147m"); the empty set is "".
func (s KindSet) String() string {
	var buf [64]byte
	return string(s.AppendTo(buf[:0]))
}

// AppendTo appends s.String() to b.
func (s KindSet) AppendTo(b []byte) []byte {
	for suit := Man; suit <= Flower; suit++ {
		wrote := false
		for k := range s.All() {
			if k.Suit() == suit {
				b = append(b, byte('0'+k.Number()))
				wrote = true
			}
		}
		if wrote {
			b = append(b, suit.Letter())
		}
	}
	return b
}
