// Package mcr is the deterministic state machine of one Chinese Official
// (MCR, 国标麻将) table: a game of hands over the 144 tiles with flowers,
// each from its deal and the setting aside of flowers to its one win or its
// exhaustive draw. Like package table (riichi) it does no I/O, keeps no
// clock and starts no goroutine: the host feeds it actions through Step,
// timeouts included (Default gives the action a seat that runs out of time
// plays), and delivers the events Step returns. Every hand starts with a
// Deal action that carries the hand's wall, so a table fed the same actions
// plays the same game forever.
//
// The table asks the MCR judge (package internal/judge/mcr) whether a seat
// may win, and offers a win only when the hand reaches the 8-fan minimum
// without its flowers: a false win cannot be declared.
//
// This file is the contract between the engine and its hosts: the types
// that cross the boundary. docs/rules/mcr.md states the rules.
package mcr

import (
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Seat is a seat at the table, 0..3: a player, who keeps its number when
// the seats change between wind rounds. Seat 0 deals the first hand.
type Seat uint8

// NumSeats is the number of seats at an MCR table.
const NumSeats = 4

// ActionType is what an action does.
type ActionType uint8

// The action types. The zero value is invalid.
const (
	Deal      ActionType = iota + 1 // system: start the next hand with Action.Wall
	Discard                         // discard Tile
	Chi                             // call the discard into the run that starts at Action.Run (the next seat only)
	Pon                             // call the discard with two own tiles of its kind
	OpenKan                         // call the discard with three own tiles of its kind
	ClosedKan                       // declare four of Tile's kind from the hand
	AddedKan                        // add Tile from the hand to a pung
	Tsumo                           // win on the tile just drawn
	Ron                             // win on the discard, or rob the kong being added
	Pass                            // decline every claim
)

var actionNames = [...]string{"", "deal", "discard", "chi", "pon", "open_kan", "closed_kan", "added_kan", "tsumo", "ron", "pass"}

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
	Tile tile.Tile // Discard, ClosedKan, AddedKan; in an offer the claimed tile (an answer's is not read)
	Run  tile.Kind // Chi: the lowest kind of the run
	Wall *wall.Wall144
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
	Index      int       // the hand's place in the game, from 0
	Round      tile.Wind // the prevalent wind
	Dealer     Seat      // the seat whose wind is East
	Winds      [NumSeats]tile.Wind
	Scores     [NumSeats]int
	WallLeft   int
	Commitment [32]byte // the host's commitment to the wall's seed, zero if none
}

// Dealt: a seat's starting tiles as dealt, flowers included (14 for the
// dealer, 13 for the others). Private to that seat.
type Dealt struct {
	Seat Seat
	Hand []tile.Tile
}

// FlowerSetAside: a seat set a flower or season aside; its replacement
// follows as a Drew. Public.
type FlowerSetAside struct {
	Seat   Seat
	Flower tile.Tile
}

// Drew: a seat drew a tile. The public event has no tile; the drawer also
// gets a private copy with it. A replacement (for a flower or a kong) comes
// from the back of the wall.
type Drew struct {
	Seat        Seat
	Tile        tile.Tile
	Known       bool
	Replacement bool
	WallLeft    int
}

// Discarded: a seat discarded. Public.
type Discarded struct {
	Seat Seat
	Tile tile.Tile
}

// ClaimOffer: what a seat may do about the discard (or the kong being
// added) in the claim window that just opened. Private to that seat; seats
// with nothing to claim get no offer and are not waited for.
type ClaimOffer struct {
	Seat    Seat
	Options []Action // Ron, Pon, OpenKan, Chi (each run); Pass is always allowed and listed last
}

// TurnOffer: what the seat to act may do in the turn that just started
// (win, kongs, discards). The engine does not emit it: a host that serves
// remote seats sends it, since a seat cannot work out by itself whether
// its hand reaches the minimum with the table's flags. Private.
type TurnOffer struct {
	Seat    Seat
	Options []Action
}

// Called: a seat called a discard or declared a kong. Public; a concealed
// kong is shown face down (Meld.Hidden) to everyone but its owner, who
// gets a private copy.
type Called struct {
	Seat Seat
	Meld Meld
}

// Won: a seat won, which ends the hand. Public: the winning hand is shown.
type Won struct {
	Seat    Seat
	From    Seat // the discarder or the robbed kong's maker; the winner itself for tsumo
	Tsumo   bool
	Chankan bool // robbed an added kong
	Hand    []tile.Tile
	Melds   []Meld
	WinTile tile.Tile
	Flowers int
	Fans    []Fan
	Total   int // the fans' points, flowers included
	Deltas  [NumSeats]int
	Scores  [NumSeats]int
}

// Fan is one fan of a won hand: its judge name, how many times it counts
// and its points.
type Fan struct {
	Name   string
	Count  int
	Points int
}

// HandEndKind is how a hand ended.
type HandEndKind uint8

// How a hand ends.
const (
	EndWon       HandEndKind = iota + 1 // a seat won
	EndWallEmpty                        // the wall ran out: no payment
)

var endNames = [...]string{"", "won", "wall_empty"}

func (k HandEndKind) String() string {
	if int(k) < len(endNames) && k != 0 {
		return endNames[k]
	}
	return "invalid"
}

// HandEnded: the hand is over. Public.
type HandEnded struct {
	Kind     HandEndKind
	Deltas   [NumSeats]int
	Scores   [NumSeats]int
	WallSeed [32]byte
	GameOver bool
}

// GameEnded: the game is over. Public. TablePoints are 4, 2, 1 and 0 by
// score, seats that tie sharing the points of their places.
type GameEnded struct {
	Scores      [NumSeats]int
	TablePoints [NumSeats]float64
}

func (HandStarted) event()    {}
func (Dealt) event()          {}
func (FlowerSetAside) event() {}
func (Drew) event()           {}
func (Discarded) event()      {}
func (ClaimOffer) event()     {}
func (Called) event()         {}
func (TurnOffer) event()      {}
func (Won) event()            {}
func (HandEnded) event()      {}
func (GameEnded) event()      {}

// MeldType is the kind of a declared meld.
type MeldType uint8

// The meld types.
const (
	MeldChi       MeldType = iota + 1
	MeldPon                // a pung from a discard
	MeldOpenKan            // a kong from a discard
	MeldAddedKan           // a pung with its fourth tile added
	MeldClosedKan          // four from the hand
)

var meldNames = [...]string{"", "chi", "pon", "open_kan", "added_kan", "closed_kan"}

func (m MeldType) String() string {
	if int(m) < len(meldNames) && m != 0 {
		return meldNames[m]
	}
	return "invalid"
}

// Meld is a declared meld: its type, its kind (the lowest of a run), the
// tile called (a discard; for a closed kong one of its four) and the seat
// it was called from (the owner for a closed kong). Hidden is set only in
// what another seat sees of a concealed kong: its kind is not shown.
type Meld struct {
	Type   MeldType
	Kind   tile.Kind
	Called tile.Kind
	From   Seat
	Hidden bool
}

// Len is the number of tiles in the meld.
func (m Meld) Len() int {
	if m.Type <= MeldPon {
		return 3
	}
	return 4
}

// IsKan reports whether the meld is a kong.
func (m Meld) IsKan() bool { return m.Type >= MeldOpenKan }

// count is how many tiles of kind k the meld holds.
func (m Meld) count(k tile.Kind) int {
	if m.Type == MeldChi {
		if k >= m.Kind && k < m.Kind+3 {
			return 1
		}
		return 0
	}
	if k == m.Kind {
		return m.Len()
	}
	return 0
}

// Phase is where a table is.
type Phase uint8

// The phases.
const (
	BetweenHands Phase = iota + 1 // waiting for a Deal (also before the first)
	Turn                          // the seat to act has drawn (or called) and must act
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

// Rules are an MCR table's options. Plain data; start from a preset.
type Rules struct {
	Name string
	// Hands is the length of the game: 16 (four wind rounds of four), or
	// fewer for bots and tests (OneHand). The seats change before hands 5,
	// 9 and 13.
	Hands int
}

// Default is the 16-hand game of the rule book.
var Default = Rules{Name: "mcr", Hands: 16}

// OneHand is a game of one hand, East round, for bots and tests.
var OneHand = Rules{Name: "mcr_one_hand", Hands: 1}

// MaxHands bounds Rules.Hands: four wind rounds of four.
const MaxHands = 16

// Config is everything a table is created with.
type Config struct {
	Rules Rules
}

// View is what one seat may see of the table: its own tiles, everything
// public, never another seat's concealed tiles or replacement draws, nor
// the wall.
type View struct {
	Seat     Seat
	Phase    Phase
	Hand     int // the hand's index in the game
	Round    tile.Wind
	Dealer   Seat
	Winds    [NumSeats]tile.Wind
	Scores   [NumSeats]int
	WallLeft int
	ToAct    Seat        // whose turn it is (Turn phase)
	Tiles    []tile.Tile // the viewer's concealed tiles, sorted, without Drawn
	Drawn    tile.Tile   // the tile just drawn, when HasDrawn
	HasDrawn bool
	Seats    [NumSeats]SeatView
	Legal    []Action
	Seq      uint64
}

// SeatView is the public part of one seat.
type SeatView struct {
	Discards []DiscardView
	Melds    []Meld // another seat's concealed kongs are Hidden
	Flowers  []tile.Tile
	HandSize int
	Score    int
}

// DiscardView is one tile of a discard pond.
type DiscardView struct {
	Tile   tile.Tile
	Called bool // taken by another seat's call, or won on
}
