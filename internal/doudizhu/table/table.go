package table

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

// Errors of Step and New. Every error they return matches one of these
// with errors.Is; *ActionError says more.
var (
	ErrConfig    = errors.New("doudizhu: bad config")
	ErrMatchOver = errors.New("doudizhu: match over")
	ErrPhase     = errors.New("doudizhu: not allowed in this phase")
	ErrNotToAct  = errors.New("doudizhu: not this seat's move")
	ErrIllegal   = errors.New("doudizhu: illegal action")
	ErrBadDeck   = errors.New("doudizhu: bad deck")
	ErrBadAction = errors.New("doudizhu: malformed action")
)

// ActionError is a refused action: what was tried, the sentinel it matches
// and why.
type ActionError struct {
	Action Action
	Err    error // one of the Err values
	Why    string
}

func (e *ActionError) Error() string {
	if e.Why == "" {
		return fmt.Sprintf("%v: %v", e.Action.Type, e.Err)
	}
	return fmt.Sprintf("%v: %s: %v", e.Action.Type, e.Why, e.Err)
}

func (e *ActionError) Unwrap() error { return e.Err }

func refuse(a Action, err error, format string, args ...any) error {
	return &ActionError{Action: a, Err: err, Why: fmt.Sprintf(format, args...)}
}

// maxScore bounds start scores, so that no score of a match can overflow.
const maxScore = 1 << 40

// Table is one Dou Dizhu match. It is a pure state machine: Step applies an
// action and returns the events it caused. A Table is not safe for
// concurrent use; one goroutine owns it.
type Table struct {
	rules  Rules
	phase  Phase
	seq    uint64
	start  [NumSeats]int
	scores [NumSeats]int
	index  int // Deal actions accepted: the next deal's index
	number int // scored deals started (a redeal does not count)
	done   int // scored deals finished

	d dealState

	out   []Event      // the block the returned events are cut from
	begin int          // where the current step's events start in out
	plays []judge.Play // the legal-play buffer
}

// dealState is the state of the deal in progress (or the last one, between
// deals, until the next Deal resets it).
type dealState struct {
	deck       deck.Deck
	commitment [32]byte
	hands      [NumSeats]card.Set
	kitty      card.Set // face down until the bidding ends, then empty
	shown      card.Counts
	played     card.Set
	toAct      Seat

	// Bidding.
	turns     int  // bidding turns taken
	base      int  // highest bid, or 2^robs
	bidder    Seat // highest bidder, or the last caller or robber
	hasBid    bool
	bids      [NumSeats]int8
	caller    Seat // the first caller (call-and-rob)
	robs      int
	robBack   bool // the first caller's rob-back turn is now
	robBacked bool // ... and was taken

	// Play.
	landlord    Seat
	hasLandlord bool
	last        judge.Play
	lastBy      Seat
	hasLast     bool
	passes      int // passes in a row
	bombs       int
	playsBy     [NumSeats]int
}

// New returns a table before its first deal.
func New(cfg Config) (*Table, error) {
	r := cfg.Rules
	if r.Deals < 1 || r.Deals > 1<<16 {
		return nil, fmt.Errorf("%w: %d deals, want 1 to 65536", ErrConfig, r.Deals)
	}
	if r.BombCap < 0 || r.BombCap > 20 {
		return nil, fmt.Errorf("%w: bomb cap %d, want 0 (none) to 20", ErrConfig, r.BombCap)
	}
	for _, v := range cfg.StartScores {
		if v < -maxScore || v > maxScore {
			return nil, fmt.Errorf("%w: start score %d out of range", ErrConfig, v)
		}
	}
	t := &Table{rules: r, phase: BetweenDeals, start: cfg.StartScores, scores: cfg.StartScores}
	return t, nil
}

// Phase is where the table is.
func (t *Table) Phase() Phase { return t.phase }

// Rules returns the table's rules.
func (t *Table) Rules() Rules { return t.rules }

// Scores returns the seats' running scores.
func (t *Table) Scores() [NumSeats]int { return t.scores }

// Seq is the Seq of the last event.
func (t *Table) Seq() uint64 { return t.seq }

// ToAct is the seat whose move the table waits for (Bidding, Playing).
func (t *Table) ToAct() Seat { return t.d.toAct }

// Index is the index the next deal gets (Deal actions accepted so far).
func (t *Table) Index() int { return t.index }

// Step applies action a and returns the events it caused, in order. On
// error the table is unchanged: every action is checked whole before
// anything moves. The events are the caller's to keep.
func (t *Table) Step(a Action) ([]Event, error) {
	if err := t.check(a); err != nil {
		return nil, err
	}
	// Events are cut from a block the table never writes again behind
	// them, so a host may keep them while the table allocates once per
	// many steps.
	if cap(t.out)-len(t.out) < 16 {
		t.out = make([]Event, 0, 256)
	}
	t.begin = len(t.out)
	t.apply(a)
	evs := t.out[t.begin:len(t.out):len(t.out)]
	if len(evs) == 0 {
		return nil, nil
	}
	return evs, nil
}

func (t *Table) emit(to Audience, b Body) {
	t.seq++
	t.out = append(t.out, Event{Seq: t.seq, To: to, Body: b})
}

// check refuses an action that may not be applied now, changing nothing.
func (t *Table) check(a Action) error {
	if t.phase == MatchOver {
		return refuse(a, ErrMatchOver, "")
	}
	if a.Type == Deal {
		if t.phase != BetweenDeals {
			return refuse(a, ErrPhase, "a deal is in progress")
		}
		if a.Deck == nil {
			return refuse(a, ErrBadAction, "no deck")
		}
		if err := a.Deck.Check(); err != nil {
			return refuse(a, ErrBadDeck, "%v", err)
		}
		return nil
	}
	if a.Type < Deal || a.Type > Play {
		return refuse(a, ErrBadAction, "unknown action type %d", a.Type)
	}
	if a.Seat >= NumSeats {
		return refuse(a, ErrBadAction, "seat %d", a.Seat)
	}
	switch t.phase {
	case BetweenDeals:
		return refuse(a, ErrPhase, "no deal in progress")
	case Bidding:
		if a.Seat != t.d.toAct {
			return refuse(a, ErrNotToAct, "seat %d bids now, not %d", t.d.toAct, a.Seat)
		}
		return t.checkBid(a)
	}
	if a.Seat != t.d.toAct {
		return refuse(a, ErrNotToAct, "seat %d plays now, not %d", t.d.toAct, a.Seat)
	}
	return t.checkPlay(a)
}

func (t *Table) apply(a Action) {
	switch t.phase {
	case BetweenDeals:
		t.deal(a)
	case Bidding:
		t.bid(a)
	case Playing:
		t.play(a)
	}
}

// deal starts a deal from a's deck.
func (t *Table) deal(a Action) {
	if !t.redeal() {
		t.number++
	}
	t.d = dealState{deck: *a.Deck, commitment: a.Commitment, toAct: Seat(a.Deck.First)}
	for s := range Seat(NumSeats) {
		t.d.hands[s] = a.Deck.Hand(int(s))
		t.d.bids[s] = -1
	}
	t.d.kitty = a.Deck.Kitty()
	t.emit(Everyone, DealStarted{Index: t.index, Number: t.number, First: t.d.toAct, Commitment: a.Commitment, Scores: t.scores})
	t.index++
	for s := range Seat(NumSeats) {
		t.emit(Only(s), Dealt{Seat: s, Hand: t.d.hands[s].Counts()})
	}
	t.phase = Bidding
}

// redeal reports whether the deal about to start replaces a thrown-in one
// (the scored deal keeps its number).
func (t *Table) redeal() bool { return t.number > t.done }
