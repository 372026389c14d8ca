// Package table is the deterministic state machine of a Dou Dizhu match:
// three seats, deal after deal, from the shuffle to the running scores. It
// does no I/O, keeps no clock and starts no goroutine: a host feeds it
// actions through Step and delivers the events Step returns. Randomness
// arrives from outside: every deal starts with a Deal action that carries
// the shuffled deck (package deck makes it from a 32-byte seed), so a table
// fed the same actions plays the same match forever.
//
// This file is the contract between the engine and its hosts: the types
// that cross the boundary.
package table

import (
	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

// Seat is a seat at the table, 0..2.
type Seat uint8

// NumSeats is the number of seats.
const NumSeats = 3

// Next returns the seat after s in turn order.
func (s Seat) Next() Seat { return (s + 1) % NumSeats }

// ActionType is what an action does.
type ActionType uint8

// The action types. The zero value is invalid.
const (
	Deal ActionType = iota + 1 // system: start the next deal with Action.Deck
	Bid                        // bid Action.Bid points (1..3; bidding mode)
	Call                       // call to be the landlord (call-and-rob mode)
	Rob                        // rob the landlord's seat (call-and-rob mode)
	Pass                       // no bid, no call, no rob, or no play
	Play                       // play Action.Cards
)

var actionNames = [...]string{"", "deal", "bid", "call", "rob", "pass", "play"}

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
	Bid   int         // Bid: 1, 2 or 3
	Cards card.Counts // Play: the cards, by rank
	Deck  *deck.Deck  // Deal: the deal's deck
	// Commitment is the host's commitment to the deck's seed (Deal),
	// published with the deal; zero if it sets none.
	Commitment [32]byte
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
// table from 1, strictly increasing over the whole match.
type Event struct {
	Seq  uint64
	To   Audience
	Body Body
}

// Body is the payload of an event: one of the types below.
type Body interface{ event() }

// DealStarted: a deal began; the hands are dealt face down. Public.
type DealStarted struct {
	Index      int  // the deal's place in the match from 0, thrown-in deals included (the seed's number)
	Number     int  // the scored deal this is, from 1 (a redeal keeps the number)
	First      Seat // the seat that bids first
	Commitment [32]byte
	Scores     [NumSeats]int
}

// Dealt: a seat's 17 cards. Private to that seat.
type Dealt struct {
	Seat Seat
	Hand card.Counts
}

// BidMade: a seat bid, called, robbed or passed in the bidding. Public.
type BidMade struct {
	Seat Seat
	Type ActionType // Bid, Call, Rob or Pass
	Bid  int        // Bid: the points bid
	Base int        // the stake's base after this action (the bid, or 2^robs)
}

// ThrownIn: every seat passed; the deal is void and the next Deal deals a
// new shuffle. Public: the seed and the hands are revealed.
type ThrownIn struct {
	Index int
	Seed  [32]byte
	Hands [NumSeats]card.Counts
	Kitty card.Counts
}

// LandlordChosen: the bidding is over. Public: the kitty is shown and joins
// the landlord's hand; the landlord leads.
type LandlordChosen struct {
	Seat  Seat
	Kitty card.Counts
	Base  int
}

// Played: a seat played cards. Public.
type Played struct {
	Seat  Seat
	Play  judge.Play // as it was read: the reading that beat the play before it
	Left  int        // cards left in the seat's hand
	Bombs int        // bombs and rockets played this deal, this one included
}

// Passed: a seat passed its turn to play. Public. Lead says that this was
// the second pass in a row: the last seat that played leads next.
type Passed struct {
	Seat Seat
	Lead bool
}

// DealEnded: a seat played its last card. Public: the hands left are shown
// and the seed revealed.
type DealEnded struct {
	Winner      Seat
	Landlord    Seat
	LandlordWon bool
	Base        int
	Bombs       int  // bombs and rockets played
	Doublings   int  // the bombs that counted (Rules.BombCap)
	Spring      bool // the farmers never played
	AntiSpring  bool // the landlord played only its first lead
	Stake       int  // what each farmer wins or loses
	Deltas      [NumSeats]int
	Scores      [NumSeats]int
	Hands       [NumSeats]card.Counts // the cards left
	Seed        [32]byte
	MatchOver   bool
}

// MatchEnded: the last deal is over. Public.
type MatchEnded struct {
	Scores [NumSeats]int
	Ranks  [NumSeats]int // 1..3, ties broken by seat order
}

func (DealStarted) event()    {}
func (Dealt) event()          {}
func (BidMade) event()        {}
func (ThrownIn) event()       {}
func (LandlordChosen) event() {}
func (Played) event()         {}
func (Passed) event()         {}
func (DealEnded) event()      {}
func (MatchEnded) event()     {}

// Phase is where a table is.
type Phase uint8

// The phases.
const (
	BetweenDeals Phase = iota + 1 // waiting for a Deal (also before the first)
	Bidding                       // seats bid (or call and rob) for the landlord
	Playing                       // the landlord led; seats play or pass in turn
	MatchOver
)

var phaseNames = [...]string{"", "between_deals", "bidding", "playing", "match_over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) && p != 0 {
		return phaseNames[p]
	}
	return "invalid"
}

// Rules is a Dou Dizhu rule set. Plain data; use a preset and change
// fields.
type Rules struct {
	Name string
	// Rob selects 叫地主/抢地主: seats call or pass, each later seat may rob
	// (doubling the base), and the first caller may rob back once. Without
	// it, 叫分: seats bid 1, 2 or 3 points once each.
	Rob bool
	// BombCap caps the doublings bombs and rockets make (0: no cap).
	BombCap int
	// Deals is how many scored deals the match lasts (thrown-in deals do
	// not count); at least 1.
	Deals int
}

// Classic is 叫分 bidding, no bomb cap, one deal.
var Classic = Rules{Name: "classic", Deals: 1}

// CallRob is 叫地主/抢地主 bidding, no bomb cap, one deal.
var CallRob = Rules{Name: "call_rob", Rob: true, Deals: 1}

// Config is everything a table is created with.
type Config struct {
	Rules       Rules
	StartScores [NumSeats]int // the seats' scores before the first deal
}

// View is what one seat may see of the table: its own cards and everything
// public; never another seat's cards, nor the kitty before the bidding ends.
type View struct {
	Seat   Seat
	Phase  Phase
	Index  int // the current (or last) deal's index; -1 before the first deal
	Number int // the scored deal being played (or last played), from 1
	Scores [NumSeats]int
	Hand   card.Counts    // the viewer's cards
	Left   [NumSeats]int  // every seat's card count
	First  Seat           // the seat that bid first
	ToAct  Seat           // whose turn it is (Bidding, Playing)
	Base   int            // the stake's base so far: the highest bid, or 2^robs
	Bidder Seat           // the highest bidder or last caller/robber, when HasBidder
	HasBid bool           // someone bid or called
	Robs   int            // robs so far (call-and-rob mode)
	Bids   [NumSeats]int8 // each seat's bid: -1 not yet, 0 passed, 1..3 (bidding mode)
	// Landlord is the landlord once chosen (HasLandlord); then Kitty is
	// the kitty, shown to all.
	Landlord    Seat
	HasLandlord bool
	Kitty       card.Counts
	// Last is the play to beat, by LastBy, when HasLast; the seat to act
	// leads when it is not set (MustLead).
	Last     judge.Play
	LastBy   Seat
	HasLast  bool
	MustLead bool
	Bombs    int         // bombs and rockets played this deal
	Played   card.Counts // every card played this deal
	Legal    []Action    // what the viewer may do now
	Seq      uint64      // the last event's Seq when the view was taken
}
