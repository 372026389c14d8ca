package classical

// Item is one line of the scoring table: points (base score) or doubles.
type Item uint8

// The items, in the order a score lists them: the points first, then the
// doubles.
const (
	MahJong            Item = iota + 1 // going Mah Jong: 20 points
	SelfDrawn                          // the winning tile drawn from the wall: 2
	ExposedMinorPung                   // 2
	ConcealedMinorPung                 // 4
	ExposedMajorPung                   // 4
	ConcealedMajorPung                 // 8
	ExposedMinorKong                   // 8
	ConcealedMinorKong                 // 16
	ExposedMajorKong                   // 16
	ConcealedMajorKong                 // 32
	DragonPair                         // 2
	SeatWindPair                       // a pair of the seat's own wind: 2
	RoundWindPair                      // a pair of the prevailing wind: 2
	BonusTile                          // each flower or season: 4

	DragonPung          // a pung or kong of dragons: 1 double each
	SeatWindPung        // of the seat's own wind: 1 double
	RoundWindPung       // of the prevailing wind: 1 double
	OwnFlower           // the seat's own flower: 1 double
	OwnSeason           // the seat's own season: 1 double
	AllFlowers          // all four flowers: 2 doubles
	AllSeasons          // all four seasons: 2 doubles
	NoChows             // winner: 1 double
	OneSuitWithHonours  // winner: one suit and honours, both present: 1 double
	OneSuit             // winner: one suit, no honours: 3 doubles
	TerminalsAndHonours // winner: every tile a terminal or an honour: 1 double
	LastTile            // winner: the last tile of the wall or the last discard: 1 double
	SupplementalTile    // winner: the replacement tile of a kong: 1 double
	RobbingTheKong      // winner: 1 double
	OriginalCall        // winner: fishing declared on the dealt hand: 1 double
	numItems
)

// firstDouble is the first item that counts doubles.
const firstDouble = DragonPung

var itemNames = [...]string{"",
	"mah_jong", "self_drawn",
	"exposed_minor_pung", "concealed_minor_pung", "exposed_major_pung", "concealed_major_pung",
	"exposed_minor_kong", "concealed_minor_kong", "exposed_major_kong", "concealed_major_kong",
	"dragon_pair", "seat_wind_pair", "round_wind_pair", "bonus_tile",
	"dragon_pung", "seat_wind_pung", "round_wind_pung", "own_flower", "own_season",
	"all_flowers", "all_seasons", "no_chows", "one_suit_with_honours", "one_suit",
	"terminals_and_honours", "last_tile", "supplemental_tile", "robbing_the_kong", "original_call",
}

// itemValues are the points of one instance of a points item, or the
// doubles of a doubles item.
var itemValues = [...]int{0,
	20, 2,
	2, 4, 4, 8,
	8, 16, 16, 32,
	2, 2, 2, 4,
	1, 1, 1, 1, 1,
	2, 2, 1, 1, 3,
	1, 1, 1, 1, 1,
}

// String is the item's name as the judge writes it.
func (it Item) String() string {
	if it != 0 && it < numItems {
		return itemNames[it]
	}
	return "invalid"
}

// Value is the points (or the doubles) of one instance of the item.
func (it Item) Value() int {
	if it != 0 && it < numItems {
		return itemValues[it]
	}
	return 0
}

// IsDouble reports whether the item counts doubles rather than points.
func (it Item) IsDouble() bool { return it >= firstDouble && it < numItems }

// Line is one line of a score: an item, how many times it applies, and
// what it adds in all (Value times Count, in points or in doubles).
type Line struct {
	Item  Item
	Count int
	Total int
}

// Reason says why a Result is not a win.
type Reason uint8

// The reasons, in the contract's names.
const (
	ReasonNone  Reason = iota // it is a win
	NotComplete               // not four sets and a pair nor a special hand
)

func (r Reason) String() string {
	switch r {
	case ReasonNone:
		return ""
	case NotComplete:
		return "not_complete"
	}
	return "invalid"
}

// Result is a scored win, or why a hand is not one.
type Result struct {
	Win    bool
	Reason Reason // why not, when Win is false

	// Special is the special hand the tiles form (NoSpecial when none),
	// even when its reading as sets and a pair pays as much.
	Special Special
	// Limits is the special hand's value in limits (0 for none).
	Limits int

	// Base, Doubles and the lines describe the best reading of the hand
	// as four sets and a pair; all zero for a hand with no such reading
	// (a Wriggly Snake, a Unique Wonder).
	Base    int // the points: the sum of the points lines
	Doubles int // the sum of the doubles lines
	// Ordinary is Base doubled Doubles times, capped at the limit; 0 when
	// the hand has no reading as sets and a pair.
	Ordinary     int
	LimitReached bool // Ordinary was capped

	// Score is what the hand scores: the larger of Ordinary and the
	// special hand's value (Limits times the limit).
	Score int
	// AsSpecial reports that Score is the special hand's value: it pays
	// at least as much as the reading as sets and a pair.
	AsSpecial bool

	lines  [numItems - 1]Line
	nLines int
}

// Lines returns the lines of the best reading as sets and a pair, points
// first, in the order of the items; none for a hand without one. The
// slice is a view of r's own storage: it costs no allocation and is valid
// as long as r is.
func (r *Result) Lines() []Line { return r.lines[:r.nLines:r.nLines] }

func (r *Result) add(it Item, n int) {
	if n <= 0 {
		return
	}
	v := it.Value() * n
	r.lines[r.nLines] = Line{Item: it, Count: n, Total: v}
	r.nLines++
	if it.IsDouble() {
		r.Doubles += v
	} else {
		r.Base += v
	}
}
