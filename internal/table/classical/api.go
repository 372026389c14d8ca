// Package classical is the deterministic state machine of one classical
// mahjong table (the British Mah-Jong Association's rules): a game of four
// wind rounds, each hand from its deal, with flowers and seasons set aside
// and replaced from the back of the wall, through chow, pung, kong and
// Mah Jong claims and fishing announcements, to the classical settlement
// in which every seat scores its own hand. Like package table (riichi) and
// table/sichuan it does no I/O, keeps no clock and starts no goroutine:
// the host feeds it actions through Step, timeouts included (Default
// gives the action a seat that runs out of time plays), and delivers the
// events Step returns. Every hand starts with a Deal action that carries
// the hand's 144-tile wall, so a table fed the same actions plays the same
// game forever.
//
// This file is the contract between the engine and its hosts: the types
// that cross the boundary. docs/rules/classical.md states the rules.
package classical

import (
	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Seat is a seat at the table, 0..3. Seat 0 is East of the first hand.
type Seat uint8

// NumSeats is the number of seats at a classical table.
const NumSeats = 4

// Next returns the seat after s in turn order (to its right).
func (s Seat) Next() Seat { return (s + 1) % NumSeats }

// DeadWall is how many tiles stay in the wall when the hand is a wash:
// the last live tile is the one that leaves fourteen behind it.
const DeadWall = 14

// ActionType is what an action does.
type ActionType uint8

// The action types. The zero value is invalid.
const (
	Deal          ActionType = iota + 1 // system: start the next hand with Action.Wall
	Discard                             // discard Tile
	Fish                                // announce fishing: one discard leaves the hand one tile from Mah Jong
	ConcealedKong                       // declare four of Tile's kind from the hand
	AddedKong                           // add Tile from the hand to an exposed pung
	MahJong                             // go out: on the tile just drawn in a turn, on the discard (or the added kong) in a claim window
	Chow                                // claim the discard into a run whose lowest tile is Tile (the seat after the discarder only)
	Pung                                // claim the discard with two own tiles of its kind
	Kong                                // claim the discard with three own tiles of its kind
	Pass                                // decline every claim
)

var actionNames = [...]string{"", "deal", "discard", "fish", "concealed_kong", "added_kong", "mah_jong", "chow", "pung", "kong", "pass"}

func (t ActionType) String() string {
	if int(t) < len(actionNames) && t != 0 {
		return actionNames[t]
	}
	return "invalid"
}

// Action is one move. Seat is ignored for Deal.
type Action struct {
	Seat Seat
	Type ActionType
	Tile tile.Tile     // Discard, ConcealedKong, AddedKong; Chow: the run's lowest tile
	Wall *wall.Wall144 // Deal: the hand's wall
}

// Audience says who may see an event: everyone, or one seat only.
type Audience struct {
	Private bool
	Seat    Seat
}

// Everyone is the public audience.
var Everyone = Audience{}

// Only is the audience of one seat.
func Only(s Seat) Audience { return Audience{Private: true, Seat: s} }

// Sees reports whether seat s may see an event for this audience.
func (a Audience) Sees(s Seat) bool { return !a.Private || a.Seat == s }

// Event is something that happened, in order. Seq numbers every event of a
// table from 1, strictly increasing over the whole game.
type Event struct {
	Seq  uint64
	To   Audience
	Body Body
}

// Body is the payload of an event: one of the types below.
type Body interface{ event() }

// HandStarted: a hand was dealt. Public.
type HandStarted struct {
	Index      int       // the hand's place in the game, from 0; bound into the wall seed
	Round      tile.Wind // the prevailing wind
	Dealer     Seat      // East of this hand
	Scores     [NumSeats]int
	WallLeft   int
	Commitment [32]byte // the host's commitment to the wall's seed, zero if none
}

// Dealt: a seat's starting hand once its bonus tiles were replaced (14
// tiles for East, 13 for the others). Private to that seat.
type Dealt struct {
	Seat Seat
	Hand []tile.Tile
}

// BonusSetAside: a seat set a flower or a season aside; its replacement
// comes from the back of the wall. Public.
type BonusSetAside struct {
	Seat Seat
	Tile tile.Tile
}

// Drew: a seat drew a tile. The public event has no tile; the drawer also
// gets a private copy with it.
type Drew struct {
	Seat        Seat
	Tile        tile.Tile
	Known       bool
	Replacement bool // from the back of the wall, after a kong or a bonus tile
	WallLeft    int
}

// Discarded: a seat discarded. Public.
type Discarded struct {
	Seat Seat
	Tile tile.Tile
}

// Fishing: a seat announced it is one tile from Mah Jong. Public: every
// seat is told. Original is an original call (see Rules).
type Fishing struct {
	Seat     Seat
	Original bool
}

// ClaimOffer: what a seat may do about the discard (or the added kong) in
// the claim window that just opened. Private to that seat; seats with
// nothing to claim get no offer and are not waited for.
type ClaimOffer struct {
	Seat    Seat
	Options []Action // MahJong, Pung, Kong, Chow; Pass is always allowed and listed last
}

// TurnOffer: what the seat to act may do (Legal). Private to that seat.
// Step never emits it; a host that tells remote players their options
// adds one after every step that leaves a seat to act.
type TurnOffer struct {
	Seat    Seat
	Options []Action
}

// Called: a seat claimed a discard or declared a kong. Public (a
// concealed kong shows its kind too).
type Called struct {
	Seat Seat
	Meld Meld
}

// Won: a seat went Mah Jong. Public: the winning hand is shown.
type Won struct {
	Seat       Seat
	From       Seat // the discarder or the robbed kong's maker; the winner itself when self-drawn
	SelfDrawn  bool
	RobbedKong bool
	Hand       []tile.Tile // concealed, with the winning tile
	Melds      []Meld
	WinTile    tile.Tile
}

// HandEndKind is how a hand ended.
type HandEndKind uint8

// How a hand ends.
const (
	EndMahJong HandEndKind = iota + 1 // a seat went out; the settlement ran
	EndWash                           // the live wall ran out; nobody pays
)

var endNames = [...]string{"", "mah_jong", "wash"}

func (k HandEndKind) String() string {
	if int(k) < len(endNames) && k != 0 {
		return endNames[k]
	}
	return "invalid"
}

// SeatScore is one seat's score line at the settlement.
type SeatScore struct {
	Score   int        // what the settlement counts for the seat
	Base    int        // the points before doubling
	Doubles int        // the doubles
	Special jc.Special // the winner's special hand, or the special hand a non-winner was fishing for
	// Fishing: a non-winner still fishing for Special; Score is its
	// fishing value.
	Fishing bool
}

// HandEnded: the hand is over. Public: every hand is shown, with every
// seat's score line and the payments.
type HandEnded struct {
	Kind       HandEndKind
	Winner     Seat // EndMahJong only
	Lines      [NumSeats]SeatScore
	Deltas     [NumSeats]int
	Scores     [NumSeats]int
	Hands      [NumSeats][]tile.Tile // every seat's concealed tiles
	WallSeed   [32]byte
	NextDealer Seat
	NextRound  tile.Wind
	GameOver   bool
}

// GameEnded: the game is over. Public.
type GameEnded struct {
	Scores [NumSeats]int
	Ranks  [NumSeats]int // 1..4, ties broken by seat order
}

func (HandStarted) event()   {}
func (Dealt) event()         {}
func (BonusSetAside) event() {}
func (Drew) event()          {}
func (Discarded) event()     {}
func (Fishing) event()       {}
func (ClaimOffer) event()    {}
func (TurnOffer) event()     {}
func (Called) event()        {}
func (Won) event()           {}
func (HandEnded) event()     {}
func (GameEnded) event()     {}

// MeldType is the kind of a declared meld; the judge's.
type MeldType = jc.MeldType

// The meld types, as the judge names them.
const (
	MeldChow          = jc.Chow
	MeldPung          = jc.Pung
	MeldKong          = jc.Kong // claimed, or added to a pung
	MeldConcealedKong = jc.ConcealedKong
)

// Meld is a declared meld: its type, its lowest kind and the seat whose
// discard was claimed (the owner for a concealed kong).
type Meld struct {
	Type MeldType
	Kind tile.Kind
	From Seat
}

// Len is the number of tiles in the meld.
func (m Meld) Len() int { return jc.Meld{Type: m.Type, Kind: m.Kind}.Len() }

// IsKong reports whether the meld is a kong.
func (m Meld) IsKong() bool { return m.Type == MeldKong || m.Type == MeldConcealedKong }

// Phase is where a table is.
type Phase uint8

// The phases.
const (
	BetweenHands Phase = iota + 1 // waiting for a Deal (also before the first)
	Turn                          // the seat to act holds one tile more than it may keep and must act
	ClaimWindow                   // seats with offers must answer a discard or an added kong
	GameOver
)

var phaseNames = [...]string{"", "between_hands", "turn", "claim_window", "game_over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && p != 0 {
		return phaseNames[p]
	}
	return "invalid"
}

// Rules are a classical table's options. Plain data; start from Default.
type Rules struct {
	Name string
	// Limit caps an ordinary hand's score; the special hands pay a
	// multiple of it. One of the judge's Limits: 500, 1000, 1500, 2000.
	Limit int
	// FishingFirst: Mah Jong on another seat's tile needs an earlier
	// fishing announcement, except in the first go-round.
	FishingFirst bool
	// Rounds is the length of the game in wind rounds, 1..4.
	Rounds int
}

// Default is the British Mah-Jong Association's game.
var Default = Rules{Name: "classical", Limit: 1000, FishingFirst: true, Rounds: 4}

// Config is everything a table is created with.
type Config struct {
	Rules Rules
}

// View is what one seat may see of the table: its own tiles, everything
// public, never another seat's concealed tiles nor the wall.
type View struct {
	Seat     Seat
	Phase    Phase
	Index    int // the hand's index in the game
	Round    tile.Wind
	Dealer   Seat
	Scores   [NumSeats]int
	WallLeft int
	ToAct    Seat        // whose turn it is (Turn phase)
	Tiles    []tile.Tile // the viewer's concealed tiles, sorted, without Drawn
	Drawn    tile.Tile   // the tile just drawn, when HasDrawn
	HasDrawn bool
	// ClaimTile is the discard (or the added kong's tile) of the open
	// claim window, from ClaimFrom.
	ClaimTile tile.Tile
	ClaimFrom Seat
	Seats     [NumSeats]SeatView
	Legal     []Action
	Seq       uint64
}

// SeatView is the public part of one seat.
type SeatView struct {
	Discards []DiscardView
	Melds    []Meld
	Bonus    []tile.Tile // flowers and seasons set aside
	HandSize int
	Fishing  bool // announced
	Score    int
}

// DiscardView is one tile of a discard pond.
type DiscardView struct {
	Tile    tile.Tile
	Claimed bool // taken by another seat's claim
}
