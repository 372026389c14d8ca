// Package table is the deterministic state machine of one riichi table, from
// the first deal to the final scores. It does no I/O, keeps no clock and
// starts no goroutine: the host feeds it actions through Step and delivers
// the events Step returns. Randomness arrives from outside too: every round
// starts with a Deal action that carries the round's wall, so a table fed the
// same actions plays the same game forever.
//
// This file is the contract between the engine and its hosts (the gRPC
// adapter, the replayer, the bots): the types that cross the boundary.
package table

import (
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Seat is a seat at the table, 0..3. Seat 0 is the first dealer.
type Seat uint8

// NumSeats is the number of seats at a riichi table.
const NumSeats = 4

// Next returns the seat after s in turn order.
func (s Seat) Next() Seat { return (s + 1) % NumSeats }

// ActionType is what an action does.
type ActionType uint8

// The action types. The zero value is invalid.
const (
	Deal          ActionType = iota + 1 // system: start the next round with Action.Wall
	Discard                             // discard Tile
	Riichi                              // declare riichi and discard Tile
	Chi                                 // call the discard with Tiles (own two tiles)
	Pon                                 // call the discard with Tiles (own two tiles)
	OpenKan                             // call the discard with three own tiles of its kind
	ClosedKan                           // declare four of Tile's kind from the hand
	AddedKan                            // add Tile from the hand to a pon
	Tsumo                               // win on the tile just drawn
	Ron                                 // win on the discard (or the kan being added)
	Pass                                // decline every claim on the discard
	NineTerminals                       // abortive draw on the first uninterrupted turn
)

var actionNames = [...]string{"", "deal", "discard", "riichi", "chi", "pon", "open_kan", "closed_kan", "added_kan", "tsumo", "ron", "pass", "nine_terminals"}

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
	Tile  tile.Tile    // Discard, Riichi, ClosedKan (any tile of the kind), AddedKan; OpenKan: the discard (optional)
	Tiles [2]tile.Tile // Chi, Pon: the seat's own tiles, exactly (red fives matter), in any order
	// Tsumogiri, for Discard and Riichi, says the tile is the one just
	// drawn (Tile must equal it). Without it, a discard is tsumogiri only
	// when the hand holds no other copy of the drawn tile's face. (Before
	// Wall, so that the six bytes share a word: an Action is 16 bytes, not
	// 24, and every offer holds a list of them.)
	Tsumogiri bool
	Wall      *wall.Wall // Deal: the round's wall (package wall gives its layout)
}

// Audience says who may see an event: everyone, or one seat only.
type Audience struct {
	Private bool // false: every seat and spectators
	Seat    Seat // the only viewer when Private
}

// Everyone is the public audience.
var Everyone = Audience{}

// Only is the audience of one seat.
func Only(s Seat) Audience { return Audience{Private: true, Seat: s} }

// Sees reports whether seat s may see an event for this audience.
func (a Audience) Sees(s Seat) bool { return !a.Private || a.Seat == s }

// Event is something that happened, in order. Seq numbers every event of a
// table from 1, strictly increasing over the whole game, whatever its
// audience.
type Event struct {
	Seq  uint64
	To   Audience
	Body Body
}

// Body is the payload of an event: one of the types below.
type Body interface{ event() }

// RoundStarted: a round was dealt. Public.
type RoundStarted struct {
	RoundWind    tile.Wind
	Number       int // 1..4 within the round wind ("East 3" is RoundWind East, Number 3)
	Dealer       Seat
	Honba        int
	RiichiSticks int
	Scores       [NumSeats]int
	Dora         tile.Tile // the first dora indicator
	WallLeft     int       // tiles left to draw from the live wall
	// Index is the round's place in the game: the n-th deal from 0,
	// repeated rounds and aborts included. It is the round number bound
	// into the wall seed and the commitment (package fair).
	Index int
	// Commitment is the host's commitment to the wall's seed
	// (wall.Wall.Commitment), zero if it set none.
	Commitment [32]byte
}

// Dealt: a seat's starting hand. Private to that seat.
type Dealt struct {
	Seat Seat
	Hand []tile.Tile // 13 tiles, sorted
}

// Drew: a seat drew a tile. The public event has Tile zero and Known false;
// the drawer also gets a private Drew with the tile.
type Drew struct {
	Seat     Seat
	Tile     tile.Tile
	Known    bool // Tile is set (the private copy)
	Rinshan  bool // a replacement draw after a kan
	WallLeft int
}

// Discarded: a seat discarded. Public.
type Discarded struct {
	Seat      Seat
	Tile      tile.Tile
	Tsumogiri bool // the tile just drawn
	Riichi    bool // the discard that declares riichi
}

// Fishing: the discarder's tenpai state after its discard. Private to that
// seat.
type Fishing struct {
	Seat    Seat
	Shanten int
	Waits   tile.KindSet // empty unless tenpai
	Furiten bool
}

// ClaimOffer: what a seat may do about the discard (or an added kan) in the
// claim window that just opened. Private to that seat; seats that can do
// nothing get no offer and are not waited for.
type ClaimOffer struct {
	Seat    Seat
	Options []Action // Ron, Pon, OpenKan, Chi variants; Pass is always allowed
}

// TurnOffer: what the seat to act may do in the turn that just started
// (Legal). Private to that seat. Step never emits it - Legal answers the
// same question in process - but a host that tells remote players their
// options adds one after every step that leaves a seat to act.
type TurnOffer struct {
	Seat    Seat
	Options []Action
}

// RiichiAccepted: the riichi discard passed without a ron and the stick is
// on the table. Public.
type RiichiAccepted struct {
	Seat         Seat
	Scores       [NumSeats]int
	RiichiSticks int
}

// Called: a seat called a discard or declared a kan. Public (a closed kan
// shows its tiles too).
type Called struct {
	Seat   Seat
	Meld   Meld
	Scores [NumSeats]int // unchanged; here so a late viewer needs no state
}

// DoraRevealed: a new dora indicator is face up. Public.
type DoraRevealed struct {
	Indicator tile.Tile
}

// Won: a seat won. Public: the winning hand is shown.
type Won struct {
	Seat    Seat
	From    Seat // the discarder; the winner itself for tsumo
	Tsumo   bool
	Hand    []tile.Tile // concealed tiles without WinTile
	Melds   []Meld
	WinTile tile.Tile
	Ura     []tile.Tile // ura indicators, revealed when the winner had riichi
	Han, Fu int
	Yakuman int
	Yaku    []judge.YakuHan
	Limit   judge.Limit
	Points  int           // what the hand is worth to the winner, honba and sticks included
	Deltas  [NumSeats]int // this win's score changes
	Pao     Seat          // the liable seat, when PaoSet
	PaoSet  bool
}

// RoundEndKind is how a round ended.
type RoundEndKind uint8

// How a round ends.
const (
	EndWin           RoundEndKind = iota + 1 // one or two rons, or a tsumo
	EndExhaustive                            // the live wall ran out
	EndNagashi                               // exhaustive draw with nagashi mangan
	EndNineTerminals                         // abort
	EndFourWinds                             // abort
	EndFourRiichi                            // abort
	EndFourKans                              // abort
	EndTripleRon                             // abort
)

var endNames = [...]string{"", "win", "exhaustive", "nagashi", "nine_terminals", "four_winds", "four_riichi", "four_kans", "triple_ron"}

func (k RoundEndKind) String() string {
	if int(k) < len(endNames) && k != 0 {
		return endNames[k]
	}
	return "invalid"
}

// RoundEnded: the round is over. Public. Tenpai hands are shown at an
// exhaustive draw.
type RoundEnded struct {
	Kind         RoundEndKind
	Deltas       [NumSeats]int // net change over the round, sticks included
	Scores       [NumSeats]int // after the round
	Tenpai       [NumSeats]bool
	Hands        [NumSeats][]tile.Tile // revealed hands: tenpai seats at a draw, nil otherwise
	RiichiSticks int                   // left on the table
	Honba        int                   // for the next round
	WallSeed     [32]byte              // the round's wall seed, revealed
	GameOver     bool
}

// GameEnded: the game is over. Public.
type GameEnded struct {
	Scores [NumSeats]int // final, leftover sticks given to first place
	Ranks  [NumSeats]int // 1..4, ties broken by seat order
}

func (RoundStarted) event()   {}
func (Dealt) event()          {}
func (Drew) event()           {}
func (Discarded) event()      {}
func (Fishing) event()        {}
func (ClaimOffer) event()     {}
func (TurnOffer) event()      {}
func (RiichiAccepted) event() {}
func (Called) event()         {}
func (DoraRevealed) event()   {}
func (Won) event()            {}
func (RoundEnded) event()     {}
func (GameEnded) event()      {}

// Meld is a declared meld as the table keeps it: the judge's view plus who
// it was called from and which tile was called.
type Meld struct {
	judge.Meld
	From   Seat      // the seat whose discard was called (the owner for a closed kan)
	Called tile.Tile // the tile taken from the discard (for an added kan: the pon's called tile)
	Added  tile.Tile // the tile added to make an added kan
}

// Phase is where a table is.
type Phase uint8

// The phases.
const (
	BetweenRounds Phase = iota + 1 // waiting for a Deal (also before the first)
	Turn                           // the seat to act has drawn (or called) and must act
	ClaimWindow                    // seats with offers must answer a discard or an added kan
	GameOver
)

var phaseNames = [...]string{"", "between_rounds", "turn", "claim_window", "game_over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && p != 0 {
		return phaseNames[p]
	}
	return "invalid"
}

// View is what one seat may see of the table: its own tiles, everything
// public, never another seat's concealed tiles or the wall.
type View struct {
	Seat         Seat
	Phase        Phase
	RoundWind    tile.Wind
	Number       int
	Dealer       Seat
	Honba        int
	RiichiSticks int
	Scores       [NumSeats]int
	Dora         []tile.Tile // indicators face up
	WallLeft     int
	ToAct        Seat        // whose turn it is (Turn phase)
	Hand         []tile.Tile // the viewer's concealed tiles, sorted, without Drawn
	Drawn        tile.Tile   // the tile just drawn, when HasDrawn
	HasDrawn     bool
	Seats        [NumSeats]SeatView
	Legal        []Action // what the viewer may do now
	Seq          uint64   // the last event's Seq when the view was taken
}

// SeatView is the public part of one seat.
type SeatView struct {
	Discards []DiscardView
	Melds    []Meld
	HandSize int
	Riichi   bool
	Score    int
}

// DiscardView is one tile of a discard pond.
type DiscardView struct {
	Tile      tile.Tile
	Tsumogiri bool
	Riichi    bool // the riichi declaration tile (shown sideways)
	Called    bool // taken by another seat's call
}

// Config is everything a table is created with.
type Config struct {
	Rules Rules
	// StartScores are the seats' scores before the first round; zero means
	// Rules.StartScore for every seat.
	StartScores [NumSeats]int
}

// Rules is a riichi table rule set: how long a game lasts and how it ends,
// plus the judge's scoring rules. Plain data; use a preset.
type Rules struct {
	Name        string
	Scoring     judge.Rules
	Aka         bool // three red fives in the wall (one per suit)
	East        bool // tonpuu: east round only (south round plays as the extension)
	StartScore  int  // 25000
	TargetScore int  // 30000: needed to end the game in all-last and the extension
}

// TenhouHanchan is Tenhou's ranked-room east-south game.
var TenhouHanchan = Rules{Name: "tenhou", Scoring: judge.Tenhou, Aka: true, StartScore: 25000, TargetScore: 30000}

// TenhouTonpuu is Tenhou's ranked-room east-only game.
var TenhouTonpuu = Rules{Name: "tenhou_tonpuu", Scoring: judge.Tenhou, Aka: true, East: true, StartScore: 25000, TargetScore: 30000}
