// Package sichuan is the deterministic state machine of one Sichuan
// "bloody battle" (血战到底) table: a match of hands, each from its deal
// through the exchange of three tiles and the choice of void suits to its
// settlement. Like package table (riichi) it does no I/O, keeps no clock and
// starts no goroutine: the host feeds it actions through Step, timeouts
// included (Default gives the action a seat that runs out of time plays),
// and delivers the events Step returns. Every hand starts with a Deal action
// that carries the hand's wall, so a table fed the same actions plays the
// same match forever.
//
// This file is the contract between the engine and its hosts: the types
// that cross the boundary. docs/rules/sichuan.md states the rules.
package sichuan

import (
	"github.com/mahjong-authority/authority/internal/tile"
)

// Seat is a seat at the table, 0..3. Seat 0 deals the first hand.
type Seat uint8

// NumSeats is the number of seats at a Sichuan table.
const NumSeats = 4

// Next returns the seat after s in turn order.
func (s Seat) Next() Seat { return (s + 1) % NumSeats }

// NumSuits is the number of suits in play: characters, circles, bamboo.
const NumSuits = 3

// ActionType is what an action does.
type ActionType uint8

// The action types. The zero value is invalid.
const (
	Deal      ActionType = iota + 1 // system: start the next hand with Action.Wall
	Exchange                        // give Tiles (three of one suit) in the exchange
	Void                            // choose Suit as the void suit (定缺)
	Discard                         // discard Tile
	Pon                             // call the discard with two own tiles of its kind
	OpenKan                         // call the discard with three own tiles of its kind
	ClosedKan                       // declare four of Tile's kind from the hand
	AddedKan                        // add Tile from the hand to a pon
	Tsumo                           // win on the tile just drawn (自摸)
	Ron                             // win on the discard, or rob the kan being added
	Pass                            // decline every claim
)

var actionNames = [...]string{"", "deal", "exchange", "void", "discard", "pon", "open_kan", "closed_kan", "added_kan", "tsumo", "ron", "pass"}

func (t ActionType) String() string {
	if int(t) < len(actionNames) && t != 0 {
		return actionNames[t]
	}
	return "invalid"
}

// Action is one move. Seat is ignored for Deal.
type Action struct {
	Seat  Seat
	Type  ActionType
	Tile  tile.Tile    // Discard, ClosedKan, AddedKan; Ron and OpenKan: the claimed tile (optional)
	Tiles [3]tile.Tile // Exchange: the tiles given, in any order
	Suit  tile.Suit    // Void: Man, Pin or Sou
	Wall  *Wall        // Deal: the hand's wall
}

// Direction is where the exchanged tiles go.
type Direction uint8

// The exchange directions.
const (
	ToNext     Direction = iota + 1 // each seat gives to the next seat in turn order
	ToPrevious                      // ... to the previous seat
	Across                          // ... to the seat opposite
)

var directionNames = [...]string{"", "to_next", "to_previous", "across"}

func (d Direction) String() string {
	if int(d) < len(directionNames) && d != 0 {
		return directionNames[d]
	}
	return "invalid"
}

// Receiver is the seat s gives its tiles to.
func (d Direction) Receiver(s Seat) Seat {
	switch d {
	case ToNext:
		return (s + 1) % NumSeats
	case ToPrevious:
		return (s + NumSeats - 1) % NumSeats
	}
	return (s + 2) % NumSeats
}

// Giver is the seat s receives tiles from.
func (d Direction) Giver(s Seat) Seat {
	switch d {
	case ToNext:
		return (s + NumSeats - 1) % NumSeats
	case ToPrevious:
		return (s + 1) % NumSeats
	}
	return (s + 2) % NumSeats
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
// table from 1, strictly increasing over the whole match.
type Event struct {
	Seq  uint64
	To   Audience
	Body Body
}

// Body is the payload of an event: one of the types below.
type Body interface{ event() }

// HandStarted: a hand was dealt. Public.
type HandStarted struct {
	Index      int // the hand's place in the match, from 0; bound into the wall seed
	Dealer     Seat
	Scores     [NumSeats]int
	WallLeft   int
	Commitment [32]byte // the host's commitment to the wall's seed, zero if none
}

// Dealt: a seat's starting hand (14 tiles for the dealer, 13 for the
// others). Private to that seat.
type Dealt struct {
	Seat Seat
	Hand []tile.Tile
}

// ExchangeChosen: a seat chose its three tiles. The public copy has no
// tiles; the seat's own private copy has them.
type ExchangeChosen struct {
	Seat  Seat
	Tiles [3]tile.Tile
	Known bool
}

// Exchanged: every seat chose; the tiles went Direction. Public.
type Exchanged struct {
	Direction Direction
}

// ExchangeReceived: what a seat gave and got. Private to that seat.
type ExchangeReceived struct {
	Seat Seat
	Gave [3]tile.Tile
	Got  [3]tile.Tile
	From Seat
}

// VoidChosen: a seat chose its void suit. The public copy does not say
// which; the seat's own private copy does.
type VoidChosen struct {
	Seat  Seat
	Suit  tile.Suit
	Known bool
}

// VoidsRevealed: every seat chose; the choices, together. Public.
type VoidsRevealed struct {
	Voids [NumSeats]tile.Suit
}

// Drew: a seat drew a tile. The public event has no tile; the drawer also
// gets a private copy with it.
type Drew struct {
	Seat        Seat
	Tile        tile.Tile
	Known       bool
	Replacement bool // after the seat's kan
	WallLeft    int
}

// Discarded: a seat discarded. Public.
type Discarded struct {
	Seat Seat
	Tile tile.Tile
}

// ClaimOffer: what a seat may do about the discard (or the added kan) in
// the claim window that just opened. Private to that seat; seats with
// nothing to claim get no offer and are not waited for.
type ClaimOffer struct {
	Seat    Seat
	Options []Action // Ron, Pon, OpenKan; Pass is always allowed and listed last
}

// TurnOffer: what the seat to act may do in the turn that just started
// (Legal). Private to that seat. Step never emits it - Legal answers the
// same question in process - but a host that tells remote players their
// options adds one after every step that leaves a seat to act, as claim
// offers tell the others.
type TurnOffer struct {
	Seat    Seat
	Options []Action
}

// Called: a seat called a discard or declared a kan. Public (a closed kan
// shows its tiles too).
type Called struct {
	Seat Seat
	Meld Meld
}

// KanPaid: the money of a kan (刮风下雨), paid at once. Public.
type KanPaid struct {
	Seat   Seat // the kan's maker
	Type   MeldType
	Deltas [NumSeats]int
	Scores [NumSeats]int
}

// KanTransferred: the discard right after Seat's kan was won (杠上炮); the
// kan's money goes to the winner (呼叫转移). Public.
type KanTransferred struct {
	Seat   Seat // the kan's maker
	To     Seat
	Units  int
	Scores [NumSeats]int
}

// Won: a seat won. Public: the winning hand is shown.
type Won struct {
	Seat    Seat
	From    Seat // the discarder or the robbed kan's maker; the winner itself for tsumo
	Tsumo   bool
	Chankan bool // robbed an added kan
	Hand    []tile.Tile
	Melds   []Meld
	WinTile tile.Tile
	Fan     int   // after the cap
	Fans    []Fan // before the cap
	Value   int   // 2^Fan units from each payer (a self-draw adds 1 to each)
	Deltas  [NumSeats]int
	Scores  [NumSeats]int
	Left    bool // the winner leaves play (not in 血流成河)
}

// Fan is one fan of a won hand: its judge name and value.
type Fan struct {
	Name string
	Fan  int
}

// HandEndKind is how a hand ended.
type HandEndKind uint8

// How a hand ends.
const (
	EndThreeWon  HandEndKind = iota + 1 // three seats won
	EndWallEmpty                        // the wall ran out; the exhaustive-draw settlement ran
)

var endNames = [...]string{"", "three_won", "wall_empty"}

func (k HandEndKind) String() string {
	if int(k) < len(endNames) && k != 0 {
		return endNames[k]
	}
	return "invalid"
}

// HandEnded: the hand is over. Public. At an empty wall the hands of the
// seats that had not won are shown, with the settlement among them.
type HandEnded struct {
	Kind       HandEndKind
	HuaZhu     [NumSeats]bool // still held the void suit (查花猪)
	Ready      [NumSeats]bool // ready among the seats that had not won (查大叫)
	HuaZhuPay  [NumSeats]int  // the 花猪 payments
	ReadyPay   [NumSeats]int  // the 大叫 payments
	Refunds    [NumSeats]int  // kan money given back (退税)
	Deltas     [NumSeats]int  // the whole hand's score changes, wins and kans included
	Scores     [NumSeats]int
	Hands      [NumSeats][]tile.Tile // revealed: seats that had not won, at an empty wall
	WallSeed   [32]byte
	NextDealer Seat
	MatchOver  bool
}

// MatchEnded: the match is over. Public.
type MatchEnded struct {
	Scores [NumSeats]int
	Ranks  [NumSeats]int // 1..4, ties broken by seat order
}

func (HandStarted) event()      {}
func (Dealt) event()            {}
func (ExchangeChosen) event()   {}
func (Exchanged) event()        {}
func (ExchangeReceived) event() {}
func (VoidChosen) event()       {}
func (VoidsRevealed) event()    {}
func (Drew) event()             {}
func (Discarded) event()        {}
func (ClaimOffer) event()       {}
func (TurnOffer) event()        {}
func (Called) event()           {}
func (KanPaid) event()          {}
func (KanTransferred) event()   {}
func (Won) event()              {}
func (HandEnded) event()        {}
func (MatchEnded) event()       {}

// MeldType is the kind of a declared meld.
type MeldType uint8

// The meld types.
const (
	MeldPon       MeldType = iota + 1
	MeldOpenKan            // from a discard (直杠)
	MeldAddedKan           // a pon with its fourth tile added (巴杠, 刮风)
	MeldClosedKan          // four from the hand (暗杠, 下雨)
)

var meldNames = [...]string{"", "pon", "open_kan", "added_kan", "closed_kan"}

func (m MeldType) String() string {
	if int(m) < len(meldNames) && m != 0 {
		return meldNames[m]
	}
	return "invalid"
}

// Meld is a declared meld: its type, its kind (all its tiles are of it)
// and the seat whose discard was called (the owner for a closed kan).
type Meld struct {
	Type MeldType
	Kind tile.Kind
	From Seat
}

// Len is the number of tiles in the meld.
func (m Meld) Len() int {
	if m.Type == MeldPon {
		return 3
	}
	return 4
}

// IsKan reports whether the meld is a kan.
func (m Meld) IsKan() bool { return m.Type >= MeldOpenKan }

// Phase is where a table is.
type Phase uint8

// The phases.
const (
	BetweenHands Phase = iota + 1 // waiting for a Deal (also before the first)
	Exchanging                    // seats choose the three tiles they give
	ChoosingVoid                  // seats choose their void suits
	Turn                          // the seat to act has drawn (or called) and must act
	ClaimWindow                   // seats with offers must answer a discard or an added kan
	MatchOver
)

var phaseNames = [...]string{"", "between_hands", "exchanging", "choosing_void", "turn", "claim_window", "match_over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && p != 0 {
		return phaseNames[p]
	}
	return "invalid"
}

// Rules are a Sichuan table's options. Plain data; start from a preset.
type Rules struct {
	Name string
	// Exchange: every seat gives three tiles of one suit before play (换三张).
	Exchange bool
	// VoidFirst: a seat that still holds tiles of its void suit must
	// discard them before any other tile.
	VoidFirst bool
	// PassLock: a seat that passes a win may not win on a discard until
	// its next draw (过手胡).
	PassLock bool
	// BloodyRiver: winners stay in play and may win again (血流成河);
	// otherwise a winner leaves play (血战到底).
	BloodyRiver bool
	// FanCap caps a hand's fan: 3, 4 or 5.
	FanCap int
	// Hands is the length of the match.
	Hands int
}

// Default is the bloody battle as the big Chinese platforms play it.
var Default = Rules{Name: "sichuan", Exchange: true, VoidFirst: true, PassLock: true, FanCap: 3, Hands: 8}

// BloodyRiver is Default with winners staying in play (血流成河).
var BloodyRiver = Rules{Name: "sichuan_bloody_river", Exchange: true, VoidFirst: true, PassLock: true, BloodyRiver: true, FanCap: 3, Hands: 8}

// MaxHands bounds Rules.Hands.
const MaxHands = 64

// Config is everything a table is created with.
type Config struct {
	Rules Rules
}

// View is what one seat may see of the table: its own tiles, its exchange,
// its void choice, everything public, never another seat's concealed tiles,
// exchange or hidden void choice, nor the wall.
type View struct {
	Seat      Seat
	Phase     Phase
	Index     int // the hand's index in the match (0 before the first deal)
	Dealer    Seat
	Scores    [NumSeats]int
	WallLeft  int
	ToAct     Seat        // whose turn it is (Turn phase)
	Tiles     []tile.Tile // the viewer's concealed tiles, sorted, without Drawn
	Drawn     tile.Tile   // the tile just drawn, when HasDrawn
	HasDrawn  bool
	Direction Direction    // the exchange's, once made
	Gave, Got [3]tile.Tile // the viewer's exchange: chosen (Gave) and, once made, received
	Chose     bool         // the viewer chose its exchange tiles
	Void      tile.Suit    // the viewer's void suit, once chosen
	VoidSet   bool
	Revealed  bool // every void suit is public
	Seats     [NumSeats]SeatView
	Legal     []Action
	Seq       uint64
}

// SeatView is the public part of one seat.
type SeatView struct {
	Discards []DiscardView
	Melds    []Meld
	Won      []tile.Tile // the tiles it won on, in order
	HandSize int
	Left     bool      // won and left play
	Void     tile.Suit // when View.Revealed
	Score    int
	KanMoney int // kan money received so far this hand
}

// DiscardView is one tile of a discard pond.
type DiscardView struct {
	Tile   tile.Tile
	Called bool // taken by another seat's pon or kan, or won on
}
