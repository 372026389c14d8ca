package mcr

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	jmcr "github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Errors of Step and New. Every error they return matches one of these
// with errors.Is; *ActionError says more.
var (
	ErrConfig    = errors.New("mcr: bad config")
	ErrGameOver  = errors.New("mcr: game over")
	ErrPhase     = errors.New("mcr: not allowed in this phase")
	ErrNotToAct  = errors.New("mcr: not this seat's move")
	ErrIllegal   = errors.New("mcr: illegal action")
	ErrBadWall   = errors.New("mcr: bad wall")
	ErrBadAction = errors.New("mcr: malformed action")
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

// Layout of a 144-tile wall (package wall): the deal in [0, 52), the
// dealer's fourteenth tile at 52, draws from the front on, replacements
// for flowers and kongs from the back (143 down). There is no dead wall.
const (
	WallSize  = wall.Size144
	liveStart = wall.LiveStart
)

// Table is one MCR game: four seats from the first deal to the final
// scores. Step applies an action and returns the events it caused. A
// Table is not safe for concurrent use; one goroutine owns it.
type Table struct {
	rules  Rules
	phase  Phase
	seq    uint64
	scores [NumSeats]int
	hands  int // hands dealt

	r hand

	out       []Event
	stepStart int
	into      bool
	acts      []Action
	tiles     []tile.Tile
	fans      []Fan
	melds     []Meld

	// The judge's arguments (judge.go) live here, not on the stack:
	// passed by pointer they would escape, one allocation per question.
	jhand  judge.Hand
	jconc  [14]tile.Tile
	jmelds [4]judge.Meld
	jsit   jmcr.Situation
	jres   jmcr.Result
}

// hand is the state of the hand being played.
type hand struct {
	wall  wall.Wall144
	front int // the next position drawn from the front
	back  int // replacements drawn from the back
	seats [NumSeats]seatState

	round  tile.Wind
	winds  [NumSeats]tile.Wind
	byWind [NumSeats]Seat // the seat of each wind
	dealer Seat

	toAct    Seat
	drawn    tile.Tile
	hasDrawn bool // toAct drew (or was dealt its fourteenth) and has not discarded
	afterKan bool // the drawn tile replaced toAct's kong
	tsumo    bool // toAct may win on the drawn tile
	tsumoWin win

	// The claim window.
	claimTile tile.Tile
	claimFrom Seat
	robbing   bool // the window is about an added kong, not a discard
	offered   [NumSeats]uint8
	answered  [NumSeats]Action
	pending   int // offers not yet answered
	ronWin    [NumSeats]win

	start [NumSeats]int // the scores at the deal

	won     bool // the hand ended in a win
	winner  Seat
	winTile tile.Tile // held by no seat: the winner's, beside its hand
}

// Offer bits of a claim window; a chi's bits say where the claimed tile
// sits in the run.
const (
	offerRon = 1 << iota
	offerPon
	offerKan
	offerChiLow  // the claimed tile is the run's lowest
	offerChiMid  // ... its middle
	offerChiHigh // ... its highest
)

// seatState is one seat's part of a hand.
type seatState struct {
	hand    []tile.Tile // concealed, sorted, drawn tile included; never a flower
	handBuf [14]tile.Tile
	counts  tile.Counts
	melds   []Meld
	meldBuf [4]Meld
	pond    []DiscardView
	flowers []tile.Tile
	flowBuf [8]tile.Tile
	waits   tile.KindSet // of the 13-tile hand: the kinds that complete it and can still come
	shanten int          // of the 13-tile hand
}

// New returns a table before its first deal.
func New(cfg Config) (*Table, error) {
	r := cfg.Rules
	if r.Hands < 1 || r.Hands > MaxHands {
		return nil, fmt.Errorf("%w: %d hands, want 1..%d", ErrConfig, r.Hands, MaxHands)
	}
	internBodies()
	t := &Table{rules: r, phase: BetweenHands}
	for s := range t.r.seats {
		p := &t.r.seats[s]
		p.pond = make([]DiscardView, 0, WallSize/NumSeats)
		p.hand, p.melds, p.flowers = p.handBuf[:0], p.meldBuf[:0], p.flowBuf[:0]
	}
	return t, nil
}

// Phase is where the table is.
func (t *Table) Phase() Phase { return t.phase }

// Rules returns the table's rules.
func (t *Table) Rules() Rules { return t.rules }

// Scores returns the seats' scores.
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

// wallLeft is how many tiles are left to draw, from either end.
func (r *hand) wallLeft() int { return WallSize - r.front - r.back }

// next is the seat after s in turn order: the next wind.
func (r *hand) next(s Seat) Seat { return r.byWind[(r.winds[s]+1)%NumSeats] }

func (t *Table) check(a Action) error {
	switch t.phase {
	case GameOver:
		return refuse(a, ErrGameOver, "")
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
	case Turn:
		t.applyTurn(a)
	case ClaimWindow:
		t.answer(a)
	}
}

// deal starts a hand on w: 13 tiles to each seat and a fourteenth to the
// dealer, then, from the dealer in turn order, every seat sets its flowers
// aside and draws their replacements from the back of the wall, until no
// seat holds one. Then the dealer plays.
func (t *Table) deal(w *wall.Wall144) {
	r := &t.r
	var ponds [NumSeats][]DiscardView
	for s := range r.seats {
		ponds[s] = r.seats[s].pond[:0]
	}
	*r = hand{wall: *w, front: liveStart + 1, start: t.scores}
	r.round, r.winds = Winds(t.hands)
	for s := range Seat(NumSeats) {
		r.byWind[r.winds[s]] = s
	}
	r.dealer = r.byWind[tile.WindEast]
	t.emit(Everyone, HandStarted{Index: t.hands, Round: r.round, Dealer: r.dealer, Winds: r.winds,
		Scores: t.scores, WallLeft: WallSize - liveStart - 1, Commitment: w.Commitment})
	t.hands++
	// pending holds the flowers dealt, per seat, in the order dealt.
	var pending [NumSeats][8]tile.Tile
	var npending [NumSeats]int
	var dealt [14]tile.Tile
	for off := range NumSeats {
		s := r.byWind[off]
		p := &r.seats[s]
		p.pond = ponds[s]
		p.hand, p.melds, p.flowers = p.handBuf[:0], p.meldBuf[:0], p.flowBuf[:0]
		n := 13
		if off == 0 {
			n = 14
		}
		for i := range n {
			pos := liveStart
			if i < 13 {
				pos = wall.DealPos(off, i)
			}
			x := w.Tiles[pos]
			dealt[i] = x
			if isFlower(x) {
				pending[s][npending[s]] = x
				npending[s]++
				continue
			}
			p.add(x)
			if off == 0 {
				r.drawn = x
			}
		}
		t.emit(Only(s), Dealt{Seat: s, Hand: t.copyTiles(dealt[:n])})
	}
	r.toAct = r.dealer
	for off := range NumSeats {
		s := r.byWind[off]
		for i := 0; i < npending[s]; i++ {
			t.setAside(s, pending[s][i])
			x := r.wall.Tiles[wall.Back144Pos(r.back)]
			r.back++
			t.emit(Everyone, drewBody(s, 0, false, true, r.wallLeft()))
			t.emit(Only(s), drewBody(s, x, true, true, r.wallLeft()))
			if isFlower(x) {
				pending[s][npending[s]] = x
				npending[s]++
				continue
			}
			r.seats[s].add(x)
			if s == r.dealer {
				r.drawn = x
			}
		}
	}
	for s := range Seat(NumSeats) {
		if s != r.dealer {
			t.updateWaits(s)
		}
	}
	// The dealer's last tile received stands for its draw: its waits are
	// those of the thirteen others, as for any draw.
	d := &r.seats[r.dealer]
	d.remove(r.drawn)
	t.updateWaits(r.dealer)
	d.add(r.drawn)
	t.startTurn(r.dealer, r.drawn, false)
}

func (t *Table) setAside(s Seat, x tile.Tile) {
	p := &t.r.seats[s]
	p.flowers = append(p.flowers, x)
	t.emit(Everyone, flowerBody(s, x))
}

func isFlower(x tile.Tile) bool { return x.Kind().IsFlower() }

// seatChange is the rule book's seat table: the wind each seat (by its
// number, which is its wind in the East round) starts each wind round
// with. The seats change before hands 5, 9 and 13.
var seatChange = [NumSeats][NumSeats]tile.Wind{
	{tile.WindEast, tile.WindSouth, tile.WindNorth, tile.WindWest},
	{tile.WindSouth, tile.WindEast, tile.WindWest, tile.WindNorth},
	{tile.WindWest, tile.WindNorth, tile.WindEast, tile.WindSouth},
	{tile.WindNorth, tile.WindWest, tile.WindSouth, tile.WindEast},
}

// Winds returns the prevalent wind of hand i of a game (from 0) and each
// seat's wind in it: the round's starting winds (seatChange), passed on
// once per hand of the round, East to North, South to East, and so on.
func Winds(i int) (round tile.Wind, winds [NumSeats]tile.Wind) {
	round = tile.Wind(i / 4 % 4)
	for s := range winds {
		winds[s] = (seatChange[s][round] + NumSeats - tile.Wind(i%4)) % NumSeats
	}
	return round, winds
}
