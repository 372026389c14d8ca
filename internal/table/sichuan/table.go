package sichuan

import (
	"errors"
	"fmt"

	jsc "github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Errors of Step and New. Every error they return matches one of these
// with errors.Is; *ActionError says more.
var (
	ErrConfig    = errors.New("sichuan: bad config")
	ErrMatchOver = errors.New("sichuan: match over")
	ErrPhase     = errors.New("sichuan: not allowed in this phase")
	ErrNotToAct  = errors.New("sichuan: not this seat's move")
	ErrIllegal   = errors.New("sichuan: illegal action")
	ErrBadWall   = errors.New("sichuan: bad wall")
	ErrBadAction = errors.New("sichuan: malformed action")
)

// ActionError is a refused action: what was tried, the sentinel it matches
// and why.
type ActionError struct {
	Action Action
	Err    error
	Why    string
}

func (e *ActionError) Error() string {
	if e.Why == "" {
		return fmt.Sprintf("%v: %v", e.Action, e.Err)
	}
	return fmt.Sprintf("%v: %s: %v", e.Action, e.Why, e.Err)
}

func (e *ActionError) Unwrap() error { return e.Err }

func refuse(a Action, err error, format string, args ...any) error {
	return &ActionError{Action: a, Err: err, Why: fmt.Sprintf(format, args...)}
}

// Table is one Sichuan match: four seats from the first deal to the final
// scores. Step applies an action and returns the events it caused. A
// Table is not safe for concurrent use; one goroutine owns it.
type Table struct {
	rules  Rules
	phase  Phase
	seq    uint64
	scores [NumSeats]int
	dealer Seat
	hands  int // hands dealt

	r hand

	out       []Event
	stepStart int
	into      bool
	acts      []Action
	tiles     []tile.Tile
	fans      []Fan
	melds     []Meld

	// The judge's arguments (judge.go).
	jhand  jsc.Hand
	jmelds [4]jsc.Meld
	jrules jsc.Rules
	jres   jsc.Result
	jsit   jsc.Situation
}

// hand is the state of the hand being played.
type hand struct {
	wall  Wall
	next  int // draws made from the live wall
	seats [NumSeats]seatState

	chosen int // seats that chose (exchange or void)

	toAct       Seat
	drawn       tile.Tile
	hasDrawn    bool // toAct drew (or was dealt its fourteenth) and has not discarded
	replacement bool // the drawn tile replaced a kan
	tsumo       bool // toAct may win on the drawn tile
	tsumoWin    win

	// The claim window.
	claimTile tile.Tile
	claimFrom Seat
	robbing   bool // the window is about an added kan, not a discard
	offered   [NumSeats]uint8
	answered  [NumSeats]ActionType
	pending   int // offers not yet answered
	ronWin    [NumSeats]win

	winners     int  // seats that won at least once
	firstWinner Seat // the first seat to win, or the discarder of a first multiple win
	anyWin      bool
	start       [NumSeats]int // the scores at the deal
}

// Offer bits of a claim window.
const (
	offerRon = 1 << iota
	offerPon
	offerKan
)

// seatState is one seat's part of a hand.
type seatState struct {
	hand    []tile.Tile // concealed, sorted, drawn tile included
	handBuf [14]tile.Tile
	counts  tile.Counts
	held    tile.KindSet // kinds with a count of 1 or more
	four    tile.KindSet // kinds with a count of 4
	melds   []Meld
	meldBuf [4]Meld
	pond    []DiscardView
	won     []wonTile // the tiles it won on

	gave, got [3]tile.Tile
	chose     bool // exchange or void chosen, in the phase that asks
	void      tile.Suit
	voidSet   bool

	wins     int
	left     bool // won and left play
	passLock bool // passed a win since its last draw
	afterKan bool // declared a kan and has not discarded since
	lastKan  int  // the kan money of its last kan, for 呼叫转移

	lastKanFrom [NumSeats]int // who paid lastKan

	// kanIn is the kan money received, payer by payer, for 退税.
	kanIn [NumSeats]int

	waits   tile.KindSet // of the 13-tile hand, kinds it holds all four of left out
	shanten int          // of the 13-tile hand; ShantenUnknown while it holds its void suit
}

// wonTile is a tile a seat won on. Taken is false for the second and third
// winners on one discard: the tile itself went to the first.
type wonTile struct {
	tile  tile.Tile
	taken bool
}

// New returns a table before its first deal.
func New(cfg Config) (*Table, error) {
	r := cfg.Rules
	switch {
	case r.FanCap < 3 || r.FanCap > 5:
		return nil, fmt.Errorf("%w: fan cap %d, want 3, 4 or 5", ErrConfig, r.FanCap)
	case r.Hands < 1 || r.Hands > MaxHands:
		return nil, fmt.Errorf("%w: %d hands, want 1..%d", ErrConfig, r.Hands, MaxHands)
	}
	internBodies()
	t := &Table{rules: r, phase: BetweenHands}
	for s := range t.r.seats {
		p := &t.r.seats[s]
		p.pond = make([]DiscardView, 0, LiveSize)
		p.won = make([]wonTile, 0, 8)
		p.hand = p.handBuf[:0]
		p.melds = p.meldBuf[:0]
	}
	return t, nil
}

// Phase is where the table is.
func (t *Table) Phase() Phase { return t.phase }

// Rules returns the table's rules.
func (t *Table) Rules() Rules { return t.rules }

// Scores returns the seats' scores in units.
func (t *Table) Scores() [NumSeats]int { return t.scores }

// Hands returns how many hands were dealt.
func (t *Table) Hands() int { return t.hands }

// Step applies action a and returns the events it caused, in order. On
// error the table is unchanged: every action is checked whole before
// anything moves. The events are the caller's to keep; an action that
// causes none returns nil.
func (t *Table) Step(a Action) ([]Event, error) {
	if err := t.check(a); err != nil {
		return nil, err
	}
	t.stepStart = len(t.out)
	t.apply(a)
	if len(t.out) == t.stepStart {
		return nil, nil
	}
	return t.out[t.stepStart:len(t.out):len(t.out)], nil
}

// StepInto is Step appending the events to dst, the caller's buffer: a
// host that is done with a step's events before its next step passes the
// same buffer each time, dst[:0], and steps allocate no room for events.
// On error dst is returned as it was.
func (t *Table) StepInto(dst []Event, a Action) ([]Event, error) {
	if err := t.check(a); err != nil {
		return dst, err
	}
	block := t.out
	t.out, t.stepStart, t.into = dst, len(dst), true
	t.apply(a)
	dst = t.out
	t.out, t.into = block, false
	return dst, nil
}

const (
	eventBlock = 256
	actBlock   = 256
	tileBlock  = 512
	fanBlock   = 64
	meldBlock  = 32
)

// copyTiles returns a copy of ts cut from a block the table never writes
// again behind it, so events may carry it.
func (t *Table) copyTiles(ts []tile.Tile) []tile.Tile {
	if len(ts) == 0 {
		return nil
	}
	if len(t.tiles)+len(ts) > cap(t.tiles) {
		t.tiles = make([]tile.Tile, 0, max(tileBlock, len(ts)))
	}
	start := len(t.tiles)
	t.tiles = append(t.tiles, ts...)
	return t.tiles[start:len(t.tiles):len(t.tiles)]
}

func (t *Table) copyFans(fs []Fan) []Fan {
	if len(fs) == 0 {
		return nil
	}
	if len(t.fans)+len(fs) > cap(t.fans) {
		t.fans = make([]Fan, 0, max(fanBlock, len(fs)))
	}
	start := len(t.fans)
	t.fans = append(t.fans, fs...)
	return t.fans[start:len(t.fans):len(t.fans)]
}

func (t *Table) copyMelds(ms []Meld) []Meld {
	if len(ms) == 0 {
		return nil
	}
	if len(t.melds)+len(ms) > cap(t.melds) {
		t.melds = make([]Meld, 0, max(meldBlock, len(ms)))
	}
	start := len(t.melds)
	t.melds = append(t.melds, ms...)
	return t.melds[start:len(t.melds):len(t.melds)]
}

func (t *Table) emit(to Audience, b Body) {
	t.seq++
	if len(t.out) == cap(t.out) && !t.into {
		step := t.out[t.stepStart:]
		t.out = append(make([]Event, 0, max(eventBlock, 2*len(step))), step...)
		t.stepStart = 0
	}
	t.out = append(t.out, Event{Seq: t.seq, To: to, Body: b})
}

// liveLeft is how many tiles are left to draw.
func (r *hand) liveLeft() int { return LiveSize - r.next }

// inPlay reports whether seat s still plays: it has not left after a win.
func (r *hand) inPlay(s Seat) bool { return !r.seats[s].left }

// nextInPlay returns the first seat after s, in turn order, still in play.
func (r *hand) nextInPlay(s Seat) Seat {
	for o := s.Next(); o != s; o = o.Next() {
		if r.inPlay(o) {
			return o
		}
	}
	return s
}

func (t *Table) check(a Action) error {
	switch t.phase {
	case MatchOver:
		return refuse(a, ErrMatchOver, "")
	case BetweenHands:
		if a.Type != Deal {
			return refuse(a, ErrPhase, "waiting for a deal")
		}
		if a.Wall == nil {
			return refuse(a, ErrBadAction, "no wall")
		}
		if err := a.Wall.Check(); err != nil {
			return refuse(a, ErrBadWall, "%v", err)
		}
		return nil
	case Exchanging:
		return t.checkExchange(a)
	case ChoosingVoid:
		return t.checkVoid(a)
	case Turn:
		return t.checkTurn(a)
	case ClaimWindow:
		return t.checkAnswer(a)
	}
	return refuse(a, ErrPhase, "")
}

func (t *Table) apply(a Action) {
	switch t.phase {
	case BetweenHands:
		t.deal(a.Wall)
	case Exchanging:
		t.exchange(a)
	case ChoosingVoid:
		t.chooseVoid(a)
	case Turn:
		t.applyTurn(a)
	case ClaimWindow:
		t.answer(a)
	}
}

// deal starts a hand on w: 14 tiles to the dealer, 13 to the others, then
// the exchange (or the void choice when there is none).
func (t *Table) deal(w *Wall) {
	r := &t.r
	var ponds [NumSeats][]DiscardView
	var won [NumSeats][]wonTile
	for s := range r.seats {
		ponds[s], won[s] = r.seats[s].pond[:0], r.seats[s].won[:0]
	}
	*r = hand{wall: *w, start: t.scores}
	for off := range NumSeats {
		s := (t.dealer + Seat(off)) % NumSeats
		p := &r.seats[s]
		p.pond, p.won = ponds[s], won[s]
		p.hand, p.melds = p.handBuf[:0], p.meldBuf[:0]
		n := 13
		if off == 0 {
			n = 14
		}
		var dealt [14]tile.Tile
		for i := range n {
			dealt[i] = w.Tiles[DealPos(off, i)]
		}
		p.setHand(dealt[:n])
	}
	t.emit(Everyone, HandStarted{Index: t.hands, Dealer: t.dealer, Scores: t.scores, WallLeft: r.liveLeft(), Commitment: w.Commitment})
	t.hands++
	for off := range NumSeats {
		s := (t.dealer + Seat(off)) % NumSeats
		t.emit(Only(s), Dealt{Seat: s, Hand: t.copyTiles(r.seats[s].hand)})
	}
	if t.rules.Exchange {
		t.phase = Exchanging
	} else {
		t.phase = ChoosingVoid
	}
}

func (t *Table) checkChooser(a Action, want ActionType) error {
	if a.Type != want {
		if a.Type == Deal {
			return refuse(a, ErrPhase, "a hand is being played")
		}
		return refuse(a, ErrPhase, "every seat must %v", want)
	}
	if a.Seat >= NumSeats {
		return refuse(a, ErrBadAction, "no seat %d", a.Seat)
	}
	if t.r.seats[a.Seat].chose {
		return refuse(a, ErrNotToAct, "seat %d already chose", a.Seat)
	}
	return nil
}

func (t *Table) checkExchange(a Action) error {
	if err := t.checkChooser(a, Exchange); err != nil {
		return err
	}
	p := &t.r.seats[a.Seat]
	var c tile.Counts
	for _, x := range a.Tiles {
		if !suited(x) {
			return refuse(a, ErrBadAction, "no such tile")
		}
		c[x.Kind()]++
		if c[x.Kind()] > p.counts[x.Kind()] {
			return refuse(a, ErrIllegal, "the hand does not hold %d %v", c[x.Kind()], x)
		}
	}
	if s := a.Tiles[0].Kind().Suit(); a.Tiles[1].Kind().Suit() != s || a.Tiles[2].Kind().Suit() != s {
		return refuse(a, ErrIllegal, "the three tiles must be of one suit")
	}
	return nil
}

// suited reports whether x is one of the 27 suited kinds, not red.
func suited(x tile.Tile) bool { return !x.Red() && x.Kind() < 27 }

func (t *Table) exchange(a Action) {
	r := &t.r
	p := &r.seats[a.Seat]
	p.gave, p.chose = a.Tiles, true
	sortTiles(p.gave[:])
	t.emit(Everyone, interned.chosePub[a.Seat])
	t.emit(Only(a.Seat), ExchangeChosen{Seat: a.Seat, Tiles: p.gave, Known: true})
	r.chosen++
	if r.chosen < NumSeats {
		return
	}
	d := r.wall.Direction
	for s := range r.seats {
		for _, x := range r.seats[s].gave {
			r.seats[s].remove(x)
		}
	}
	for s := range Seat(NumSeats) {
		from := d.Giver(s)
		q := &r.seats[s]
		q.got = r.seats[from].gave
		for _, x := range q.got {
			q.add(x)
		}
	}
	t.emit(Everyone, interned.exchanged[d])
	for s := range Seat(NumSeats) {
		q := &r.seats[s]
		t.emit(Only(s), ExchangeReceived{Seat: s, Gave: q.gave, Got: q.got, From: d.Giver(s)})
	}
	t.startVoid()
}

func (t *Table) startVoid() {
	r := &t.r
	r.chosen = 0
	for s := range r.seats {
		r.seats[s].chose = false
	}
	t.phase = ChoosingVoid
}

func (t *Table) checkVoid(a Action) error {
	if err := t.checkChooser(a, Void); err != nil {
		return err
	}
	if a.Suit > tile.Sou {
		return refuse(a, ErrBadAction, "no suit %d", a.Suit)
	}
	return nil
}

func (t *Table) chooseVoid(a Action) {
	r := &t.r
	p := &r.seats[a.Seat]
	p.void, p.voidSet, p.chose = a.Suit, true, true
	t.emit(Everyone, voidBody(a.Seat, 0, false))
	t.emit(Only(a.Seat), voidBody(a.Seat, a.Suit, true))
	r.chosen++
	if r.chosen < NumSeats {
		return
	}
	var voids [NumSeats]tile.Suit
	for s := range r.seats {
		voids[s] = r.seats[s].void
		r.seats[s].chose = false
	}
	t.emit(Everyone, revealedBody(voids))
	for s := range Seat(NumSeats) {
		if s != t.dealer {
			t.updateWaits(s)
		}
	}
	// The dealer's fourteenth tile stands for its draw; when it gave that
	// tile away, the last tile it received does.
	d := &r.seats[t.dealer]
	x := r.wall.Tiles[DealPos(0, 13)]
	if d.has(x) == 0 {
		x = d.got[2]
	}
	// Its waits are those of the thirteen others, as for any draw.
	d.remove(x)
	t.updateWaits(t.dealer)
	d.add(x)
	t.startTurn(t.dealer, x, false)
}
