// Package classical is the judge of the classical rules played in Britain
// and Australia (the British Mah-Jong Association's table with the
// Australian names of the special hands): pure functions of a seat's hand.
// It scores a win the classical way - points for sets, pairs, going Mah
// Jong and bonus tiles, then doubles, capped at the table's limit - and
// recognises the three special hands (Wriggly Snake, Unique Wonder, Gates
// of Heaven), complete and one tile away (fishing).
// docs/rules/classical-scoring.md describes the table.
//
// A hand is a count array of the 34 playing kinds, its declared melds and
// its bonus tiles (flowers and seasons). The shape analysis is the riichi
// judge's (package judge): its readings and shanten tables; seven pairs
// and thirteen orphans are no classical hands (thirteen orphans is the
// Unique Wonder here). Nothing here allocates.
package classical

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// MeldType is the kind of a declared meld.
type MeldType uint8

// The meld types. The zero value is invalid.
const (
	Chow          MeldType = iota + 1 // a run claimed from the seat before
	Pung                              // a triplet claimed from a discard: exposed
	Kong                              // a quad claimed or added to a pung: exposed
	ConcealedKong                     // four tiles declared from the hand
)

var meldNames = [...]string{"", "chow", "pung", "kong", "concealed_kong"}

func (t MeldType) String() string {
	if int(t) < len(meldNames) && t != 0 {
		return meldNames[t]
	}
	return "invalid"
}

// Meld is a declared meld: its type and its lowest kind.
type Meld struct {
	Type MeldType
	Kind tile.Kind
}

// Len is the number of tiles in the meld: 3 for a chow or a pung, 4 for a
// kong.
func (m Meld) Len() int {
	if m.Type == Kong || m.Type == ConcealedKong {
		return 4
	}
	return 3
}

// valid reports whether m is a meld a classical hand can hold.
func (m Meld) valid() bool {
	switch m.Type {
	case Chow:
		return m.Kind < 27 && m.Kind%9 <= 6
	case Pung, Kong, ConcealedKong:
		return m.Kind < tile.NumKinds
	}
	return false
}

// BonusSet is a set of the eight bonus tiles: bit i is flower i+1 (1f..4f,
// plum, orchid, chrysanthemum, bamboo) for i < 4 and season i-3 (5f..8f,
// spring, summer, autumn, winter) for i >= 4. Flower and season n belong
// to the seat of the n-th wind (1 East, 2 South, 3 West, 4 North).
type BonusSet uint8

// BonusOf returns the bonus set of the flower and season tiles of ts;
// other tiles are ignored.
func BonusOf(ts []tile.Tile) BonusSet {
	var b BonusSet
	for _, t := range ts {
		if k := t.Kind(); k.IsFlower() {
			b |= 1 << (k - tile.Plum)
		}
	}
	return b
}

// Hand is a seat's hand as the judge sees it: the concealed tiles (13 less
// 3 per meld between turns, and without the winning tile when scoring),
// the declared melds and the bonus tiles set aside.
type Hand struct {
	Concealed tile.Counts
	Melds     []Meld
	Bonus     BonusSet
}

// Situation is how a win came about and the seat's winds.
type Situation struct {
	Tsumo        bool // self-drawn; false is a win on a discard
	Rinshan      bool // self-drawn on a kong's replacement (supplemental) tile
	Chankan      bool // robbed a kong: won on the tile another seat added to its pung
	Haitei       bool // self-drew the last tile of the wall
	Houtei       bool // won on the last discard
	OriginalCall bool // fishing was declared on the dealt hand

	SeatWind  tile.Wind // the seat whose wind is East is the dealer
	RoundWind tile.Wind // the prevailing wind
}

// Rules are the table's scoring options.
type Rules struct {
	// Limit caps an ordinary hand's score; a special hand is worth a
	// multiple of it. One of Limits.
	Limit int
}

// Limits are the limits a table may choose.
var Limits = [...]int{500, 1000, 1500, 2000}

// Default is the default table: a limit of 1,000.
var Default = Rules{Limit: 1000}

// ValidLimit reports whether n is one of Limits.
func ValidLimit(n int) bool {
	for _, l := range Limits {
		if n == l {
			return true
		}
	}
	return false
}

// Special is one of the special hands.
type Special uint8

// The special hands, in the contract's order. The zero value is no
// special hand.
const (
	NoSpecial     Special = iota
	WrigglySnake          // 1-9 of a suit and E S W N, one of the thirteen paired
	UniqueWonder          // the thirteen terminals and honours, one of them paired
	GatesOfHeaven         // 1112345678999 of a suit and one more 2-8 of it
	numSpecials
)

// NumSpecials is the number of special hands.
const NumSpecials = int(numSpecials) - 1

var specialNames = [...]string{"", "wriggly_snake", "unique_wonder", "gates_of_heaven"}

// String is the hand's name in the judge contract; "" for NoSpecial.
func (s Special) String() string {
	if s < numSpecials {
		return specialNames[s]
	}
	return "invalid"
}

// Limits is the special hand's value in limits: 1 for the Wriggly Snake
// and the Gates of Heaven, 2 for the Unique Wonder; 0 for NoSpecial.
func (s Special) Limits() int {
	switch s {
	case WrigglySnake, GatesOfHeaven:
		return 1
	case UniqueWonder:
		return 2
	}
	return 0
}

// Value is what the special hand pays when complete under rules r: its
// limits times the limit.
func (s Special) Value(r *Rules) int { return s.Limits() * r.Limit }

// FishingValue is what a seat still fishing for the special hand collects
// when another seat goes out: 40% of its winning value.
func (s Special) FishingValue(r *Rules) int { return s.Value(r) * 2 / 5 }
