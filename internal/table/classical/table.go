package classical

import (
	"errors"
	"fmt"

	jc "github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Errors of Step and New. Every error they return matches one of these
// with errors.Is; *ActionError says more.
var (
	ErrConfig    = errors.New("classical: bad config")
	ErrGameOver  = errors.New("classical: game over")
	ErrPhase     = errors.New("classical: not allowed in this phase")
	ErrNotToAct  = errors.New("classical: not this seat's move")
	ErrIllegal   = errors.New("classical: illegal action")
	ErrBadWall   = errors.New("classical: bad wall")
	ErrBadAction = errors.New("classical: malformed action")
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

// Table is one classical game: four seats from the first deal to the
// final scores. Step applies an action and returns the events it caused.
// A Table is not safe for concurrent use; one goroutine owns it.
type Table struct {
	rules  Rules
	jrules jc.Rules
	phase  Phase
	seq    uint64
	scores [NumSeats]int
	dealer Seat
	round  tile.Wind
	hands  int // hands dealt

	r hand

	out       []Event
	stepStart int
	into      bool
	tiles     []tile.Tile
	melds     []Meld
	acts      []Action
}

// hand is the state of the hand being played.
type hand struct {
	wall  wall.Wall144
	front int // tiles drawn from the front of the wall, from position 52
	back  int // replacement tiles drawn from the back
	seats [NumSeats]seatState

	toAct    Seat
	drawn    tile.Tile
	hasDrawn bool // toAct drew and has not discarded; its Mah Jong is self-drawn
	kongDraw bool // the drawn tile replaced a kong
	lastLive bool // the drawn tile was the last of the live wall
	discards int  // discards made this hand

	// The judge's answers about the turn's hand, asked once a turn:
	// turnFresh is cleared whenever a turn starts.
	turnFresh bool
	turnWin   bool // Mah Jong on the drawn tile
	turnFish  bool // a discard leaves the hand fishing
	calls     bool // a discard was claimed, or a kong declared
	original  [NumSeats]bool

	// The claim window.
	claimTile tile.Tile
	claimFrom Seat
	robbing   bool // about an added kong, not a discard
	offers    [NumSeats][]Action
	offerBuf  [NumSeats][8]Action
	answered  [NumSeats]bool
	answers   [NumSeats]Action
	pending   int

	winLine SeatScore // the winner's, scored before its tile joined the hand
}

// seatState is one seat's part of a hand.
type seatState struct {
	hand     []tile.Tile // concealed, sorted, drawn tile included
	handBuf  [14]tile.Tile
	counts   tile.Counts
	melds    []Meld
	meldBuf  [4]Meld
	pond     []DiscardView
	bonus    []tile.Tile
	bonusBuf [8]tile.Tile
	fishing  bool
	turns    int // discards made

	// waits caches the judge's waits of the hand between turns; fresh
	// says it is of the hand as it is (add and remove clear it).
	waits tile.KindSet
	fresh bool
}

// New returns a table before its first deal.
func New(cfg Config) (*Table, error) {
	r := cfg.Rules
	switch {
	case !jc.ValidLimit(r.Limit):
		return nil, fmt.Errorf("%w: limit %d, want one of %v", ErrConfig, r.Limit, jc.Limits)
	case r.Rounds < 1 || r.Rounds > 4:
		return nil, fmt.Errorf("%w: %d rounds, want 1..4", ErrConfig, r.Rounds)
	}
	internBodies()
	t := &Table{rules: r, jrules: jc.Rules{Limit: r.Limit}, phase: BetweenHands}
	for s := range t.r.seats {
		p := &t.r.seats[s]
		p.pond = make([]DiscardView, 0, 64)
		p.hand = p.handBuf[:0]
		p.melds = p.meldBuf[:0]
		p.bonus = p.bonusBuf[:0]
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

// Dealer is East of the hand being played, or of the next one between
// hands.
func (t *Table) Dealer() Seat { return t.dealer }

// Round is the prevailing wind.
func (t *Table) Round() tile.Wind { return t.round }

// Step applies action a and returns the events it caused, in order. On
// error the table is unchanged: every action is checked whole before
// anything moves. The events are the caller's to keep.
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

// StepInto is Step appending the events to dst, the caller's buffer, so
// that steps allocate no room for events. On error dst is returned as it
// was.
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
	tileBlock  = 512
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

// remaining is how many tiles are left in the wall, dead wall included.
func (r *hand) remaining() int { return wall.Size144 - wall.DealSize - r.front - r.back }

// liveLeft is how many tiles are left to draw from the front.
func (r *hand) liveLeft() int { return max(0, r.remaining()-DeadWall) }

// windOf is seat s's wind in a hand dealt by dealer.
func windOf(s, dealer Seat) tile.Wind { return tile.Wind((s + NumSeats - dealer) % NumSeats) }

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

// deal starts a hand on w: 13 tiles to each seat and East's fourteenth,
// then each seat from East sets its bonus tiles aside and replaces them
// from the back of the wall.
func (t *Table) deal(w *wall.Wall144) {
	r := &t.r
	var ponds [NumSeats][]DiscardView
	for s := range r.seats {
		ponds[s] = r.seats[s].pond[:0]
	}
	*r = hand{wall: *w}
	for s := range r.seats {
		p := &r.seats[s]
		p.pond = ponds[s]
		p.hand, p.melds, p.bonus = p.handBuf[:0], p.meldBuf[:0], p.bonusBuf[:0]
	}
	for off := range NumSeats {
		s := (t.dealer + Seat(off)) % NumSeats
		p := &r.seats[s]
		for i := range 13 {
			p.add(w.Tiles[wall.DealPos(off, i)])
		}
		if off == 0 {
			p.add(w.Tiles[wall.DealSize])
			r.front = 1
		}
	}
	t.emit(Everyone, HandStarted{Index: t.hands, Round: t.round, Dealer: t.dealer, Scores: t.scores, WallLeft: r.liveLeft(), Commitment: w.Commitment})
	t.hands++
	// Bonus tiles are set aside, and replaced, before anyone is told its
	// hand: the Dealt events show the hands play starts with.
	for off := range NumSeats {
		s := (t.dealer + Seat(off)) % NumSeats
		p := &r.seats[s]
		for {
			i := p.firstBonus()
			if i < 0 {
				break
			}
			x := p.hand[i]
			p.remove(x)
			p.bonus = append(p.bonus, x)
			t.emit(Everyone, BonusSetAside{Seat: s, Tile: x})
			p.add(r.wall.Tiles[wall.Back144Pos(r.back)])
			r.back++
		}
	}
	for off := range NumSeats {
		s := (t.dealer + Seat(off)) % NumSeats
		t.emit(Only(s), Dealt{Seat: s, Hand: t.copyTiles(r.seats[s].hand)})
	}
	t.phase = Turn
	r.toAct = t.dealer
	// East's first turn counts as after a draw: it may go out self-drawn
	// on its dealt hand. The tile that stands for the draw is the highest
	// of the hand, which every view can tell from the Dealt event (the
	// fourteenth tile may have been a bonus tile, replaced).
	east := &r.seats[t.dealer]
	r.hasDrawn, r.turnFresh = true, false
	r.drawn = east.hand[len(east.hand)-1]
}

// drawFront draws the next live tile for seat s and starts its turn; at
// the end of the live wall the hand is a wash.
func (t *Table) drawFront(s Seat) {
	r := &t.r
	if r.remaining() <= DeadWall {
		t.endHand(EndWash, 0)
		return
	}
	x := r.wall.Tiles[wall.DealSize+r.front]
	r.front++
	last := r.remaining() == DeadWall
	t.take(s, x, false, false, last)
}

// drawBack draws a replacement tile from the back of the wall for seat s
// (after a kong when kong is set, else after a bonus tile).
func (t *Table) drawBack(s Seat, kong bool) {
	r := &t.r
	if r.remaining() == 0 {
		t.endHand(EndWash, 0)
		return
	}
	x := r.wall.Tiles[wall.Back144Pos(r.back)]
	r.back++
	t.take(s, x, true, kong, false)
}

// take gives seat s tile x and starts its turn, or, for a bonus tile,
// sets it aside and draws its replacement.
func (t *Table) take(s Seat, x tile.Tile, replacement, kong, last bool) {
	r := &t.r
	p := &r.seats[s]
	if x.Kind().IsFlower() {
		p.bonus = append(p.bonus, x)
		t.emit(Everyone, BonusSetAside{Seat: s, Tile: x})
		t.drawBack(s, false)
		return
	}
	p.add(x)
	t.emit(Everyone, drewBody(s, 0, false, replacement, r.liveLeft()))
	t.emit(Only(s), drewBody(s, x, true, replacement, r.liveLeft()))
	t.phase = Turn
	r.robbing, r.turnFresh = false, false
	r.toAct, r.drawn, r.hasDrawn, r.kongDraw, r.lastLive = s, x, true, kong, last
}

// add puts x into the sorted hand.
func (p *seatState) add(x tile.Tile) {
	i := len(p.hand)
	p.hand = append(p.hand, x)
	for i > 0 && p.hand[i-1] > x {
		p.hand[i] = p.hand[i-1]
		i--
	}
	p.hand[i] = x
	p.fresh = false
	if k := x.Kind(); k < tile.NumKinds {
		p.counts[k]++
	}
}

// remove takes one x out of the hand; the caller checked it is there.
func (p *seatState) remove(x tile.Tile) {
	for i, y := range p.hand {
		if y == x {
			copy(p.hand[i:], p.hand[i+1:])
			p.hand = p.hand[:len(p.hand)-1]
			p.fresh = false
			if k := x.Kind(); k < tile.NumKinds {
				p.counts[k]--
			}
			return
		}
	}
}

func (p *seatState) firstBonus() int {
	for i, x := range p.hand {
		if x.Kind().IsFlower() {
			return i
		}
	}
	return -1
}
