// Package tile is the vocabulary every other package speaks: the kinds of
// mahjong tiles, physical tiles with red fives, count arrays, kind sets, winds
// and the MPSZ notation of docs/tiles.md.
//
// It imports nothing of this module, so that the judge, the wall, the claims
// and the table can all depend on it without depending on each other.
package tile

// Suit is the suit of a kind. Honours and flowers are suits of their own.
type Suit uint8

const (
	Man    Suit = iota // characters, "m"
	Pin                // circles, "p"
	Sou                // bamboo, "s"
	Honor              // winds and dragons, "z"
	Flower             // flowers and seasons, "f" (Chinese and classical rule sets)
)

var suitLetters = [...]byte{'m', 'p', 's', 'z', 'f'}

// Letter is the suit's MPSZ letter.
func (s Suit) Letter() byte {
	if int(s) < len(suitLetters) {
		return suitLetters[s]
	}
	return '?'
}

func (s Suit) String() string { return string(s.Letter()) }

// Kind is one of the faces a tile can show: the 34 playing kinds (0..33) and
// the eight flowers and seasons (34..41). Kinds are ordered 1m..9m, 1p..9p,
// 1s..9s, East, South, West, North, White, Green, Red, then 1f..8f, which is
// also the order of the MPSZ notation, so a Kind indexes count arrays
// directly.
type Kind uint8

// The kinds. Dragons are named by their Japanese names, as in the notation's
// documentation, to keep Red (the dragon) apart from red fives.
const (
	M1 Kind = iota
	M2
	M3
	M4
	M5
	M6
	M7
	M8
	M9
	P1
	P2
	P3
	P4
	P5
	P6
	P7
	P8
	P9
	S1
	S2
	S3
	S4
	S5
	S6
	S7
	S8
	S9
	East
	South
	West
	North
	Haku  // white dragon, 5z
	Hatsu // green dragon, 6z
	Chun  // red dragon, 7z
	Plum  // 1f
	Orchid
	Chrysanthemum
	Bamboo
	Spring // 5f
	Summer
	Autumn
	Winter
)

const (
	// NumKinds is the number of playing kinds: the length of a count array.
	NumKinds = 34
	// NumAllKinds includes the eight flowers and seasons.
	NumAllKinds = 42
)

// KindOf returns the kind with number n (1..9 for suits, 1..7 for honours,
// 1..8 for flowers) in suit s. ok is false when there is no such kind.
func KindOf(s Suit, n int) (k Kind, ok bool) {
	switch {
	case s <= Sou && n >= 1 && n <= 9:
		return Kind(int(s)*9 + n - 1), true
	case s == Honor && n >= 1 && n <= 7:
		return Kind(27 + n - 1), true
	case s == Flower && n >= 1 && n <= 8:
		return Kind(NumKinds + n - 1), true
	}
	return 0, false
}

// Valid reports whether k is one of the 42 kinds.
func (k Kind) Valid() bool { return k < NumAllKinds }

// Suit returns the kind's suit.
func (k Kind) Suit() Suit {
	switch {
	case k < 27:
		return Suit(k / 9)
	case k < NumKinds:
		return Honor
	default:
		return Flower
	}
}

// Number is the kind's digit in the MPSZ notation: 1..9 for suits, 1..7 for
// honours, 1..8 for flowers.
func (k Kind) Number() int {
	switch {
	case k < 27:
		return int(k%9) + 1
	case k < NumKinds:
		return int(k-27) + 1
	default:
		return int(k-NumKinds) + 1
	}
}

// IsHonor reports whether k is a wind or a dragon.
func (k Kind) IsHonor() bool { return k >= East && k < NumKinds }

// IsWind reports whether k is one of the four winds.
func (k Kind) IsWind() bool { return k >= East && k <= North }

// IsDragon reports whether k is one of the three dragons.
func (k Kind) IsDragon() bool { return k >= Haku && k <= Chun }

// IsFlower reports whether k is a flower or a season.
func (k Kind) IsFlower() bool { return k >= NumKinds && k < NumAllKinds }

// IsTerminal reports whether k is a 1 or a 9 of a suit.
func (k Kind) IsTerminal() bool { return k < 27 && (k%9 == 0 || k%9 == 8) }

// IsYaochu reports whether k is a terminal or an honour (the kinds of
// thirteen orphans, and the ones that break tanyao).
func (k Kind) IsYaochu() bool { return k < NumKinds && yaochu&(1<<k) != 0 }

// IsSimple reports whether k is a 2..8 of a suit.
func (k Kind) IsSimple() bool { return k < 27 && !k.IsTerminal() }

const yaochu = 1<<M1 | 1<<M9 | 1<<P1 | 1<<P9 | 1<<S1 | 1<<S9 |
	1<<East | 1<<South | 1<<West | 1<<North | 1<<Haku | 1<<Hatsu | 1<<Chun

// Yaochu is the set of the 13 terminal and honour kinds.
const Yaochu KindSet = yaochu

// DoraAfter returns the kind a dora indicator k points at: the next number in
// its suit (9 wraps to 1), the next wind (North wraps to East), the next
// dragon (Red wraps to White). Flowers point at themselves.
func (k Kind) DoraAfter() Kind {
	switch {
	case k < 27:
		if k%9 == 8 {
			return k - 8
		}
		return k + 1
	case k.IsWind():
		if k == North {
			return East
		}
		return k + 1
	case k.IsDragon():
		if k == Chun {
			return Haku
		}
		return k + 1
	}
	return k
}

// String is the kind in MPSZ notation, for example "5m" or "7z".
func (k Kind) String() string {
	if !k.Valid() {
		return "?"
	}
	return kindNames[k]
}

// kindNames and redNames are the kinds' and the red fives' names, made
// once: the wire form of every event names tiles, and a string made per
// call would be an allocation per tile sent.
var kindNames, redNames = func() (k [NumAllKinds]string, r [NumAllKinds]string) {
	for i := range k {
		k[i] = string([]byte{byte('0' + Kind(i).Number()), Kind(i).Suit().Letter()})
		r[i] = string([]byte{'0', Kind(i).Suit().Letter()})
	}
	return k, r
}()

// Tile is a physical tile face: a kind, and for the fives of the three suits
// whether it is the red five (aka dora). The zero value is a plain 1m.
type Tile uint8

const redBit Tile = 0x80

// The three red fives.
const (
	RedM5 = Tile(M5) | redBit
	RedP5 = Tile(P5) | redBit
	RedS5 = Tile(S5) | redBit
)

// HasRed reports whether kind k has a red tile: the fives of the suits.
func (k Kind) HasRed() bool { return k == M5 || k == P5 || k == S5 }

// RedOf returns the red five of kind k, or the plain tile of k when k has no
// red tile.
func RedOf(k Kind) Tile {
	if k.HasRed() {
		return Tile(k) | redBit
	}
	return Tile(k)
}

// Plain returns the ordinary (not red) tile of kind k.
func Plain(k Kind) Tile { return Tile(k) }

// Kind returns the tile's kind; a red five is a five.
func (t Tile) Kind() Kind { return Kind(t &^ redBit) }

// Red reports whether t is a red five.
func (t Tile) Red() bool { return t&redBit != 0 }

// Valid reports whether t is a tile that exists: a valid kind, and red only
// on a five of a suit.
func (t Tile) Valid() bool {
	k := t.Kind()
	if !k.Valid() {
		return false
	}
	return !t.Red() || k == M5 || k == P5 || k == S5
}

// String is the tile in MPSZ notation; red fives are written with 0 ("0p").
func (t Tile) String() string {
	if !t.Valid() {
		return "?"
	}
	if t.Red() {
		return redNames[t.Kind()]
	}
	return t.Kind().String()
}

// Wind is a seat or round wind.
type Wind uint8

// The winds, in turn order.
const (
	WindEast Wind = iota
	WindSouth
	WindWest
	WindNorth
)

// Kind returns the honour kind of the wind.
func (w Wind) Kind() Kind { return East + Kind(w&3) }

// Next returns the wind after w (North wraps to East).
func (w Wind) Next() Wind { return (w + 1) & 3 }

// String is the wind as a word of the contract: "E", "S", "W" or "N".
func (w Wind) String() string {
	if w > WindNorth {
		return "?"
	}
	return string("ESWN"[w])
}

// ParseWind reads "E", "S", "W" or "N".
func ParseWind(s string) (Wind, error) {
	if len(s) == 1 {
		switch s[0] {
		case 'E':
			return WindEast, nil
		case 'S':
			return WindSouth, nil
		case 'W':
			return WindWest, nil
		case 'N':
			return WindNorth, nil
		}
	}
	return 0, &SyntaxError{Input: s, Pos: 0, Msg: "wind must be E, S, W or N"}
}
