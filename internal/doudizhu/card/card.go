// Package card is the vocabulary of Dou Dizhu: the 54 cards, their ranks in
// playing order, counts of cards by rank, and the notation that writes a
// hand or a play as one character per card ("33344455", "TJQKA", "XD").
// Suits play no part in the game; they exist only so that each of the 54
// cards has an identity a shuffle can move and an invariant check can
// follow. It imports nothing of the project.
package card

import (
	"fmt"
	"math/bits"
	"strings"
)

// Rank is a card's rank in playing order, low to high: 3 4 5 6 7 8 9 T J Q
// K A 2, the black joker X and the red joker D. The zero value is Three.
type Rank uint8

// The ranks. Straights, pair chains and airplanes run within Three..Ace.
const (
	Three Rank = iota
	Four
	Five
	Six
	Seven
	Eight
	Nine
	Ten
	Jack
	Queen
	King
	Ace
	Two
	BlackJoker
	RedJoker
)

// NumRanks is the number of ranks; Rank values are below it.
const NumRanks = 15

// rankLetters writes each rank in the notation, in rank order.
const rankLetters = "3456789TJQKA2XD"

// String is the rank's letter in the notation, or "?" for a value out of
// range.
func (r Rank) String() string {
	if r < NumRanks {
		return rankLetters[r : r+1]
	}
	return "?"
}

// Valid reports whether r is one of the 15 ranks.
func (r Rank) Valid() bool { return r < NumRanks }

// Joker reports whether r is one of the two jokers.
func (r Rank) Joker() bool { return r == BlackJoker || r == RedJoker }

// Chains reports whether r may be part of a chain (straight, pair chain,
// airplane): 3 to A, never the 2 or a joker.
func (r Rank) Chains() bool { return r <= Ace }

// Copies is how many cards of rank r the deck holds: four, one of each joker.
func (r Rank) Copies() int {
	if r.Joker() {
		return 1
	}
	return 4
}

// ParseRank reads one letter of the notation.
func ParseRank(c byte) (Rank, bool) {
	i := strings.IndexByte(rankLetters, c)
	if i < 0 {
		return 0, false
	}
	return Rank(i), true
}

// Card is one of the 54 cards: 4r+s for the s-th copy (0..3) of rank r in
// 3..2, then 52 the black joker and 53 the red joker. The copy number is
// the card's identity only; it never affects play.
type Card uint8

// NumCards is the size of the deck.
const NumCards = 54

// Rank is the card's rank.
func (c Card) Rank() Rank {
	if c >= 52 {
		return BlackJoker + Rank(c-52)
	}
	return Rank(c / 4)
}

// Valid reports whether c is one of the 54 cards.
func (c Card) Valid() bool { return c < NumCards }

// String is the card's rank letter (suits are not written).
func (c Card) String() string { return c.Rank().String() }

// Of returns the copy-th card (0-based) of rank r; jokers have copy 0 only.
func Of(r Rank, copy int) Card {
	if r.Joker() {
		return Card(52 + int(r-BlackJoker))
	}
	return Card(4*int(r) + copy)
}

// ErrNotation is the error of Parse for text that is not cards of the deck.
var ErrNotation = fmt.Errorf("card: bad notation")

// Counts is a multiset of cards: how many cards of each rank. It is how a
// hand or a play is judged, since suits play no part. The zero value is
// empty.
type Counts [NumRanks]uint8

// Parse reads cards in the notation, in any order: one letter per card
// from "3456789TJQKA2XD". It refuses any other character and more copies
// of a rank than the deck holds.
func Parse(s string) (Counts, error) {
	var c Counts
	for i := 0; i < len(s); i++ {
		r, ok := ParseRank(s[i])
		if !ok {
			return Counts{}, fmt.Errorf("%w: %q is not a card (3456789TJQKA2XD)", ErrNotation, s[i:i+1])
		}
		c[r]++
		if int(c[r]) > r.Copies() {
			return Counts{}, fmt.Errorf("%w: more than %d %s in %q", ErrNotation, r.Copies(), r, s)
		}
	}
	return c, nil
}

// MustParse is Parse for constants in tests and examples; it panics on an
// error.
func MustParse(s string) Counts {
	c, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return c
}

// String writes the cards sorted low to high, "" when empty.
func (c *Counts) String() string {
	var b [NumCards]byte
	return string(c.Append(b[:0]))
}

// Append appends the notation of c, sorted low to high, to dst.
func (c *Counts) Append(dst []byte) []byte {
	for r := range Rank(NumRanks) {
		for range c[r] {
			dst = append(dst, rankLetters[r])
		}
	}
	return dst
}

// Len is the number of cards.
func (c *Counts) Len() int {
	n := 0
	for _, k := range c {
		n += int(k)
	}
	return n
}

// Empty reports whether c holds no card.
func (c *Counts) Empty() bool { return *c == Counts{} }

// Contains reports whether c holds every card of sub.
func (c *Counts) Contains(sub *Counts) bool {
	for r := range c {
		if sub[r] > c[r] {
			return false
		}
	}
	return true
}

// Add adds the cards of o to c.
func (c *Counts) Add(o *Counts) {
	for r := range c {
		c[r] += o[r]
	}
}

// Sub removes the cards of o from c; c must contain them.
func (c *Counts) Sub(o *Counts) {
	for r := range c {
		c[r] -= o[r]
	}
}

// Fits reports whether c is a part of one deck: no rank has more copies
// than the deck holds.
func (c *Counts) Fits() bool {
	for r := range Rank(NumRanks) {
		if int(c[r]) > r.Copies() {
			return false
		}
	}
	return true
}

// Compare orders multisets of the same size by card order: the sorted
// cards compared one by one, low card first. It returns -1 if a comes
// first, +1 if b does, 0 if they are equal. At the lowest rank where the
// counts differ, the one with more copies has that rank where the other
// has a higher one, so it comes first.
func Compare(a, b *Counts) int {
	for r := range a {
		if a[r] != b[r] {
			if a[r] > b[r] {
				return -1
			}
			return 1
		}
	}
	return 0
}

// Set is a set of cards by identity: bit c for card c. Hands, the kitty and
// the played cards of a deal are sets, so that a check can see that no card
// is in two places.
type Set uint64

// All is the whole deck.
const All Set = 1<<NumCards - 1

// Has reports whether card c is in s.
func (s Set) Has(c Card) bool { return s&(1<<c) != 0 }

// With returns s with card c added.
func (s Set) With(c Card) Set { return s | 1<<c }

// Counts counts the cards of s by rank.
func (s Set) Counts() Counts {
	var c Counts
	for r := range Rank(Two + 1) {
		c[r] = uint8(bits.OnesCount64(uint64(s) >> (4 * r) & 0xF))
	}
	c[BlackJoker] = uint8(uint64(s) >> 52 & 1)
	c[RedJoker] = uint8(uint64(s) >> 53 & 1)
	return c
}

// Len is the number of cards in s.
func (s Set) Len() int {
	return bits.OnesCount64(uint64(s))
}

// Take returns the cards of s that make up the multiset want, taking the
// lowest copies of each rank, and whether s holds them all.
func (s Set) Take(want *Counts) (Set, bool) {
	var took Set
	for r := range Rank(NumRanks) {
		need := want[r]
		for cp := 0; need > 0 && cp < r.Copies(); cp++ {
			c := Of(r, cp)
			if s.Has(c) {
				took = took.With(c)
				need--
			}
		}
		if need > 0 {
			return 0, false
		}
	}
	return took, true
}

// Cards lists the cards of s in card order.
func (s Set) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for c := Card(0); c < NumCards; c++ {
		if s.Has(c) {
			out = append(out, c)
		}
	}
	return out
}

// String writes the cards of s by rank, low to high.
func (s Set) String() string {
	c := s.Counts()
	return c.String()
}
