package judge

import "github.com/mahjong-authority/authority/internal/tile"

// MeldType is the kind of a declared meld.
type MeldType uint8

// The meld types. The zero value is invalid.
const (
	Chi       MeldType = iota + 1 // a run claimed from the seat before
	Pon                           // a triplet claimed from a discard
	OpenKan                       // daiminkan: a quad claimed from a discard
	AddedKan                      // shouminkan: a fourth tile added to a pon; counts as open
	ClosedKan                     // ankan: four tiles declared from the hand
)

var meldNames = [...]string{"", "chi", "pon", "open_kan", "added_kan", "closed_kan"}

func (t MeldType) String() string {
	if int(t) < len(meldNames) && t != 0 {
		return meldNames[t]
	}
	return "invalid"
}

// Meld is a declared meld as the judge needs it: its type and its tiles,
// sorted (three for chi and pon, four for kans).
type Meld struct {
	Type  MeldType
	Tiles [4]tile.Tile
}

// Len is the number of tiles in the meld.
func (m Meld) Len() int {
	if m.IsKan() {
		return 4
	}
	return 3
}

// IsKan reports whether the meld is a quad of any kind.
func (m Meld) IsKan() bool { return m.Type >= OpenKan }

// Open reports whether the meld opens the hand (everything but a closed kan).
func (m Meld) Open() bool { return m.Type != ClosedKan }

// Kind is the kind of the meld's lowest tile.
func (m Meld) Kind() tile.Kind { return m.Tiles[0].Kind() }

// Hand is a hand as the judge scores it: the concealed tiles (without the
// winning tile) and the declared melds.
type Hand struct {
	Concealed []tile.Tile
	Melds     []Meld
}

// Situation is everything about a win that is not the tiles: how it was won,
// the flags the table tracks, winds, dora and the sticks on the table.
type Situation struct {
	Tsumo        bool // self-drawn; false is a ron
	Riichi       bool
	DoubleRiichi bool // implies Riichi
	Ippatsu      bool
	Rinshan      bool
	Chankan      bool
	Haitei       bool
	Houtei       bool
	Tenhou       bool
	Chiihou      bool

	SeatWind  tile.Wind // the seat whose wind is East is the dealer
	RoundWind tile.Wind

	DoraIndicators []tile.Tile
	UraIndicators  []tile.Tile // count only with riichi

	Honba        int
	RiichiSticks int
}

// Dealer reports whether the winner is the dealer.
func (s *Situation) Dealer() bool { return s.SeatWind == tile.WindEast }
