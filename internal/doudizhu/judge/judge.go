// Package judge is the Dou Dizhu play judge: what a play is (its type, the
// rank that decides comparisons, the length of a chain), whether it beats
// the play before it, and every legal play of a hand, leading or answering.
// It is pure and allocation-free on the hot path: AppendLegal enumerates
// into the caller's buffer.
//
// The rule variant is the common one, described in docs/doudizhu.md:
// straights of 5 or more within 3..A, pair chains of 3 or more pairs,
// airplanes of 2 or more trios with no wings, single wings or pair wings,
// a trio with a single or a pair, four with two singles or two pairs
// (neither a bomb), the bomb and the rocket.
package judge

import (
	"github.com/mahjong-authority/authority/internal/doudizhu/card"
)

// Type is the kind of a play.
type Type uint8

// The play types. Invalid (the zero value) is a set of cards that is no
// play.
const (
	Invalid             Type = iota
	Single                   // one card
	Pair                     // two of a rank (jokers never pair)
	Trio                     // three of a rank
	Bomb                     // four of a rank
	Rocket                   // both jokers
	TrioSingle               // a trio and one card of another rank (a joker too)
	TrioPair                 // a trio and a pair of another rank
	Straight                 // 5 or more consecutive singles within 3..A
	PairChain                // 3 or more consecutive pairs within 3..A
	Airplane                 // 2 or more consecutive trios within 3..A
	AirplaneSingleWings      // n consecutive trios and n cards of other ranks
	AirplanePairWings        // n consecutive trios and n pairs of distinct other ranks
	FourTwoSingles           // a quad and any two other cards
	FourTwoPairs             // a quad and two pairs of distinct ranks
	numTypes
)

var typeNames = [numTypes]string{"invalid", "single", "pair", "trio", "bomb", "rocket", "trio_single", "trio_pair",
	"straight", "pair_chain", "airplane", "airplane_single_wings", "airplane_pair_wings", "four_two_singles", "four_two_pairs"}

// String is the type's name in the judge's JSON lines ("trio_single").
func (t Type) String() string {
	if t < numTypes {
		return typeNames[t]
	}
	return "invalid"
}

// ParseType reads a type's name; ok is false for an unknown name.
func ParseType(s string) (Type, bool) {
	for t, name := range typeNames {
		if name == s {
			return Type(t), true
		}
	}
	return Invalid, false
}

// Chain reports whether plays of type t are chains, whose Len counts units.
func (t Type) Chain() bool {
	switch t {
	case Straight, PairChain, Airplane, AirplaneSingleWings, AirplanePairWings:
		return true
	}
	return false
}

// Play is a set of cards read as one play: its type, the rank that decides
// comparisons (the lowest rank of a chain, the rank of the trio or quad
// otherwise; zero for the rocket and Invalid) and the number of units of a
// chain (cards of a straight, pairs of a pair chain, trios of an airplane;
// 1 for every other type).
type Play struct {
	Type  Type
	Rank  card.Rank
	Len   uint8
	Cards card.Counts
}

// Size is the number of cards of the play.
func (p *Play) Size() int { return p.Cards.Len() }

// String writes the play's cards, sorted.
func (p *Play) String() string { return p.Cards.String() }

// Classify reads cards as a play. A set that reads two ways is read as its
// longest chain (333444555666 is an airplane of four trios, not three
// trios with single wings); of two readings of the same length, the one
// with the higher rank (3334445556667778 is four trios from 4 with the
// wings 3338). Cards that are no play give Type Invalid.
func Classify(c *card.Counts) Play {
	p := Play{Cards: *c, Len: 1}
	n := 0
	var mult [5]int       // how many ranks appear k times
	var some [5]card.Rank // the highest rank appearing k times
	for r, k := range c {
		if k > 0 {
			n += int(k)
			mult[k]++
			some[k] = card.Rank(r)
		}
	}
	set := func(t Type, r card.Rank) Play {
		p.Type, p.Rank = t, r
		return p
	}
	switch {
	case n == 0:
		return p
	case n == 1:
		return set(Single, some[1])
	case n == 2 && c[card.BlackJoker] == 1 && c[card.RedJoker] == 1:
		return set(Rocket, 0)
	case n == 2 && mult[2] == 1:
		return set(Pair, some[2])
	case n == 3 && mult[3] == 1:
		return set(Trio, some[3])
	case n == 4 && mult[4] == 1:
		return set(Bomb, some[4])
	case n == 4 && mult[3] == 1:
		return set(TrioSingle, some[3])
	case n == 5 && mult[3] == 1 && mult[2] == 1:
		return set(TrioPair, some[3])
	case n == 6 && mult[4] == 1:
		return set(FourTwoSingles, some[4])
	case n == 8 && mult[4] == 1 && mult[2] == 2:
		return set(FourTwoPairs, some[4])
	}
	// Chains, longest reading first: a pure airplane of m trios is longer
	// than any reading of the same cards with wings.
	if n >= 5 && mult[1] == n {
		if lo, ok := consecutive(c, 1, n); ok {
			p.Len = uint8(n)
			return set(Straight, lo)
		}
	}
	if n >= 6 && 2*mult[2] == n {
		if lo, ok := consecutive(c, 2, n/2); ok {
			p.Len = uint8(n / 2)
			return set(PairChain, lo)
		}
	}
	if n >= 6 && 3*mult[3] == n {
		if lo, ok := consecutive(c, 3, n/3); ok {
			p.Len = uint8(n / 3)
			return set(Airplane, lo)
		}
	}
	if n >= 8 && n%4 == 0 {
		if lo, ok := highestWindow(c, n/4); ok {
			p.Len = uint8(n / 4)
			return set(AirplaneSingleWings, lo)
		}
	}
	if n >= 10 && n%5 == 0 && mult[3] == n/5 && mult[2] == n/5 {
		if lo, ok := consecutive3(c, n/5); ok {
			p.Len = uint8(n / 5)
			return set(AirplanePairWings, lo)
		}
	}
	return p
}

// consecutive returns the lowest rank of c when the ranks of c are exactly
// l consecutive ranks within 3..A each present k times. The caller checked
// that l ranks appear k times and that nothing else is present.
func consecutive(c *card.Counts, k uint8, l int) (card.Rank, bool) {
	lo := card.Rank(0)
	for c[lo] == 0 {
		lo++
	}
	if int(lo)+l-1 > int(card.Ace) {
		return 0, false
	}
	for r := lo; r < lo+card.Rank(l); r++ {
		if c[r] != k {
			return 0, false
		}
	}
	return lo, true
}

// consecutive3 is consecutive for the ranks that appear three times, the
// others being ignored: the trios of an airplane with pair wings.
func consecutive3(c *card.Counts, l int) (card.Rank, bool) {
	lo := card.Rank(0)
	for c[lo] != 3 {
		lo++
	}
	if int(lo)+l-1 > int(card.Ace) {
		return 0, false
	}
	for r := lo; r < lo+card.Rank(l); r++ {
		if c[r] != 3 {
			return 0, false
		}
	}
	return lo, true
}

// highestWindow finds the highest reading of c (4l cards) as an airplane of
// l trios with single wings: l consecutive ranks within 3..A present
// exactly three times each (a wing of the airplane's own rank is not
// allowed, so a rank of the airplane cannot appear four times).
func highestWindow(c *card.Counts, l int) (card.Rank, bool) {
	run := 0
	for r := int(card.Ace); r >= 0; r-- {
		if c[r] == 3 {
			run++
			if run == l {
				return card.Rank(r), true
			}
		} else {
			run = 0
		}
	}
	return 0, false
}

// Beats reports whether p, read as it is, beats prev: the same type and
// length with a higher rank, or a bomb over a non-bomb or a lower bomb, or
// the rocket over anything. Answer also tries the other readings of the
// cards.
func Beats(p, prev *Play) bool {
	switch {
	case p.Type == Invalid || prev.Type == Rocket:
		return false
	case p.Type == Rocket:
		return true
	case p.Type == Bomb:
		return prev.Type != Bomb || p.Rank > prev.Rank
	}
	return p.Type == prev.Type && p.Len == prev.Len && p.Rank > prev.Rank
}

// Answer reads cards as an answer to prev: the reading that beats it, if
// any. Cards that read two ways may answer under either reading: 333444555666
// is a four-trio airplane, and answers three trios with single wings too
// (as 555666+444 over anything below 5).
func Answer(c *card.Counts, prev *Play) (Play, bool) {
	p := Classify(c)
	if Beats(&p, prev) {
		return p, true
	}
	if prev.Type == AirplaneSingleWings && p.Type != Bomb && p.Type != Rocket && c.Len() == 4*int(prev.Len) {
		if lo, ok := highestWindow(c, int(prev.Len)); ok && lo > prev.Rank {
			return Play{Type: AirplaneSingleWings, Rank: lo, Len: prev.Len, Cards: *c}, true
		}
	}
	return Play{}, false
}

// Lead reads cards as a lead: any valid play.
func Lead(c *card.Counts) (Play, bool) {
	p := Classify(c)
	return p, p.Type != Invalid
}
