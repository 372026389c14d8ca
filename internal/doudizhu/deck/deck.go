// Package deck deals Dou Dizhu: the 54 cards shuffled from a 32-byte seed by
// the project's own Fisher-Yates, cut into three hands of 17 and a kitty of
// 3, and the seat that bids first drawn from the same generator. The
// algorithm is specified exactly in docs/doudizhu.md so that anyone can
// recompute a deal from its revealed seed; TestShuffleGolden pins it.
package deck

import (
	"errors"
	"fmt"
	"math/bits"
	mrand "math/rand/v2"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
)

// The shape of a deal.
const (
	Seats     = 3
	HandSize  = 17
	KittySize = 3
)

// Deck is one shuffled deck: the cards in dealing order, the seat that
// bids first, and the seed they came from (zero for a stacked deck).
type Deck struct {
	Cards [card.NumCards]card.Card
	First int // the seat that bids first, 0..2
	Seed  [32]byte
}

// ErrNotDeck is the error of Check for cards that are not one whole deck, or
// not the shuffle of their seed.
var ErrNotDeck = errors.New("deck: not a deck")

// New shuffles the deck from seed. The cards start in card order (card c
// at position c: 3s, 4s, ..., 2s, then X and D); the generator is
// ChaCha8Rand keyed with the seed (https://c2sp.org/chacha8rand; Go's
// math/rand/v2 ChaCha8); for i from 53 down to 1, position i is swapped
// with position Uniform(i+1). One more draw, Uniform(3), is the seat that
// bids first. The same seed gives the same deal forever.
func New(seed [32]byte) Deck {
	d := Deck{Seed: seed}
	for i := range d.Cards {
		d.Cards[i] = card.Card(i)
	}
	r := mrand.NewChaCha8(seed)
	for i := card.NumCards - 1; i > 0; i-- {
		j := Uniform(r.Uint64, uint64(i+1))
		d.Cards[i], d.Cards[j] = d.Cards[j], d.Cards[i]
	}
	d.First = int(Uniform(r.Uint64, Seats))
	return d
}

// Uniform returns a number in [0, n) without bias from the 64-bit outputs
// of next, by Lemire's multiply-and-reject: take x = next(), form the
// 128-bit product x*n, and return its high half unless its low half is
// below 2^64 mod n, in which case draw again. n must be positive. (The
// mahjong walls use the same method; it is repeated here so that the two
// games share no package.)
func Uniform(next func() uint64, n uint64) uint64 {
	hi, lo := bits.Mul64(next(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(next(), n)
		}
	}
	return hi
}

// Hand is the set of seat's 17 cards: positions 17*seat to 17*seat+16.
func (d *Deck) Hand(seat int) card.Set {
	var s card.Set
	for _, c := range d.Cards[HandSize*seat : HandSize*(seat+1)] {
		s = s.With(c)
	}
	return s
}

// Kitty is the set of the three cards left face down: positions 51 to 53.
func (d *Deck) Kitty() card.Set {
	var s card.Set
	for _, c := range d.Cards[Seats*HandSize:] {
		s = s.With(c)
	}
	return s
}

// Check reports whether d holds every card once, and, when it has a seed,
// whether it is the deal New makes from it.
func (d *Deck) Check() error {
	if d.Seed != ([32]byte{}) {
		if New(d.Seed) != *d {
			return fmt.Errorf("%w: cards or first bidder are not the shuffle of the seed", ErrNotDeck)
		}
		return nil
	}
	var s card.Set
	for _, c := range d.Cards {
		if !c.Valid() || s.Has(c) {
			return fmt.Errorf("%w: card %d twice or out of range", ErrNotDeck, c)
		}
		s = s.With(c)
	}
	if d.First < 0 || d.First >= Seats {
		return fmt.Errorf("%w: first bidder %d", ErrNotDeck, d.First)
	}
	return nil
}

// Stacked builds a deck with the given hands (17 cards each, in the
// notation) and kitty (3 cards); copies are taken lowest first. For tests
// and scenario scripts. Empty strings are filled with the cards left, in
// card order.
func Stacked(hands [Seats]string, kitty string, first int) (Deck, error) {
	d := Deck{First: first}
	var used card.Set
	parts := [Seats + 1]string{hands[0], hands[1], hands[2], kitty}
	sizes := [Seats + 1]int{HandSize, HandSize, HandSize, KittySize}
	var sets [Seats + 1]card.Set
	for i, p := range parts {
		if p == "" {
			continue
		}
		c, err := card.Parse(p)
		if err != nil {
			return d, err
		}
		if c.Len() != sizes[i] {
			return d, fmt.Errorf("%w: %q has %d cards, want %d", ErrNotDeck, p, c.Len(), sizes[i])
		}
		took, ok := (card.All &^ used).Take(&c)
		if !ok {
			return d, fmt.Errorf("%w: %q: not enough cards left", ErrNotDeck, p)
		}
		used |= took
		sets[i] = took
	}
	for i, p := range parts {
		if p != "" {
			continue
		}
		for c := card.Card(0); c < card.NumCards && sets[i].Len() < sizes[i]; c++ {
			if !used.Has(c) {
				used = used.With(c)
				sets[i] = sets[i].With(c)
			}
		}
	}
	pos := 0
	for _, s := range sets {
		for _, c := range s.Cards() {
			d.Cards[pos] = c
			pos++
		}
	}
	return d, d.Check()
}
