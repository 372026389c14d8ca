package table

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Errors of Step and New. Every error they return matches one of these
// with errors.Is; *ActionError says more.
var (
	ErrConfig    = errors.New("table: bad config")
	ErrGameOver  = errors.New("table: game over")
	ErrPhase     = errors.New("table: not allowed in this phase")
	ErrNotToAct  = errors.New("table: not this seat's move")
	ErrIllegal   = errors.New("table: illegal action")
	ErrBadWall   = errors.New("table: bad wall")
	ErrBadAction = errors.New("table: malformed action")
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
		return fmt.Sprintf("%v: %v", e.Action, e.Err)
	}
	return fmt.Sprintf("%v: %s: %v", e.Action, e.Why, e.Err)
}

func (e *ActionError) Unwrap() error { return e.Err }

func refuse(a Action, err error, format string, args ...any) error {
	return &ActionError{Action: a, Err: err, Why: fmt.Sprintf(format, args...)}
}

// Table is one game of riichi mahjong: four seats from the first deal to
// the final scores. It is a pure state machine: Step applies an action and
// returns the events it caused. A Table is not safe for concurrent use; one
// goroutine owns it.
type Table struct {
	rules Rules
	phase Phase
	seq   uint64
	start [NumSeats]int // the scores before the first round

	scores [NumSeats]int
	total  int       // scores plus sticks: constant over the game
	wind   tile.Wind // round wind
	number int       // 1..4 within the round wind; the dealer is seat number-1
	honba  int
	sticks int // riichi sticks on the table
	rounds int // rounds started

	r round

	out       []Event     // the block the returned events are cut from
	stepStart int         // where the events of the step being applied start in out
	into      bool        // out is StepInto's dst: it grows by append
	acts      []Action    // the block the actions of claim offers are cut from
	tiles     []tile.Tile // the block the tiles of events are cut from

	lastFishing [NumSeats]struct { // each seat's last tenpai Fishing, boxed
		f    Fishing
		body Body
	}
}

// round is the state of the round being played.
type round struct {
	wall    wall.Wall
	next    int // live-wall draws made
	kans    int
	rinshan int // replacement draws made
	dora    int // indicators face up
	pending int // kan indicators waiting for the kan player's next discard
	doraInd [wall.MaxDora]tile.Tile
	uraInd  [wall.MaxDora]tile.Tile

	seats [NumSeats]seatState

	toAct        Seat
	drawn        tile.Tile
	hasDrawn     bool // toAct drew and has not discarded or declared a kan
	drawnRinshan bool // the drawn tile came from the dead wall
	tsumo        bool // toAct may declare tsumo on the drawn tile
	tsumoRes     judge.Result

	interrupted bool // a call or kan happened: no more first-turn specials
	discards    int  // discards made this round
	firstWind   tile.Kind
	kansBy      [NumSeats]int
	fourKans    bool // the round ends after the next discard unless it is ronned

	// The claim window.
	window        claims.Window
	src           claims.Source
	claimTile     tile.Tile
	claimFrom     Seat
	riichiPending bool // the discard in the window declares riichi
	riichiDouble  bool // ... on the seat's first uninterrupted turn
	ronRes        [NumSeats]judge.Result

	startScores [NumSeats]int
}

// seatState is one seat's part of a round.
type seatState struct {
	hand    []tile.Tile // concealed, sorted, drawn tile included
	handBuf [14]tile.Tile
	counts  tile.Counts
	held    tile.KindSet // kinds with counts of 1 or more
	pairs   tile.KindSet // kinds with counts of 2 or more
	melds   []Meld
	meldBuf [4]Meld
	jmelds  [4]judge.Meld // the judge's view of melds
	pond    []DiscardView

	discarded tile.KindSet // kinds this seat discarded, called away or not

	riichi       bool
	doubleRiichi bool
	ippatsu      bool
	tempFuriten  bool // passed a winning tile since its last discard
	riichiFurit  bool // passed a winning tile after riichi: for good

	shanten int          // of the 3n+1 hand
	waits   tile.KindSet // of the 3n+1 hand, without kinds it holds all four of
	forbid  tile.KindSet // kuikae: kinds it may not discard right now
	// judgeShanten is judge.Shanten of the 3n+1 hand, which differs from
	// shanten only for a hand waiting only on kinds it holds all four of.
	judgeShanten int

	nagashi bool // every discard a terminal or honour, none called

	pao    Seat // liable for big three dragons or big four winds
	paoSet bool
}

// New returns a table before its first deal.
func New(cfg Config) (*Table, error) {
	r := cfg.Rules
	if r.StartScore <= 0 || r.TargetScore <= 0 {
		return nil, fmt.Errorf("%w: start score %d and target score %d must be positive", ErrConfig, r.StartScore, r.TargetScore)
	}
	internBodies()
	t := &Table{rules: r, phase: BetweenRounds, wind: tile.WindEast, number: 1}
	t.scores = cfg.StartScores
	if t.scores == ([NumSeats]int{}) {
		for s := range t.scores {
			t.scores[s] = r.StartScore
		}
	}
	for _, v := range t.scores {
		if v < 0 {
			return nil, fmt.Errorf("%w: negative start score %d", ErrConfig, v)
		}
		t.total += v
	}
	t.start = t.scores
	for s := range t.r.seats {
		t.r.seats[s].pond = make([]DiscardView, 0, 32)
	}
	return t, nil
}

// Phase is where the table is.
func (t *Table) Phase() Phase { return t.phase }

// Rules returns the table's rules.
func (t *Table) Rules() Rules { return t.rules }

// Scores returns the seats' scores (sticks on the table not included).
func (t *Table) Scores() [NumSeats]int { return t.scores }

// Step applies action a and returns the events it caused, in order. On
// error the table is unchanged: every action is checked whole before
// anything moves. The events are the caller's to keep; an action that
// causes none (a pass while others still have to answer) returns nil.
func (t *Table) Step(a Action) ([]Event, error) {
	if err := t.check(a); err != nil {
		return nil, err
	}
	t.stepStart = len(t.out)
	t.apply(a)
	if len(t.out) == t.stepStart {
		return nil, nil
	}
	// The events are cut from a block the table never writes again behind
	// them, so a host may keep them (and append to them: the slice has no
	// spare room), while the table allocates once per many steps.
	return t.out[t.stepStart:len(t.out):len(t.out)], nil
}

// StepInto is Step appending the events to dst, the caller's buffer: a
// host that is done with a step's events before its next step (it sends
// them on at once) passes the same buffer each time, dst[:0], and steps
// allocate no room for events. What the events carry (hands, offers) is
// still the caller's to keep. On error dst is returned as it was.
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

// eventBlock is how many events the returned slices share a block of;
// the actions and tiles events carry come from blocks of their own.
const (
	eventBlock = 256
	actBlock   = 128
	tileBlock  = 512
)

// copyTiles returns a copy of ts cut from a block the table never writes
// again behind it (no spare room either), so events may carry it.
func (t *Table) copyTiles(ts []tile.Tile) []tile.Tile {
	if len(t.tiles)+len(ts) > cap(t.tiles) {
		t.tiles = make([]tile.Tile, 0, max(tileBlock, len(ts)))
	}
	start := len(t.tiles)
	t.tiles = append(t.tiles, ts...)
	return t.tiles[start:len(t.tiles):len(t.tiles)]
}

func (t *Table) emit(to Audience, b Body) {
	t.seq++
	if len(t.out) == cap(t.out) && !t.into {
		// A new block; the step's events so far move with it.
		step := t.out[t.stepStart:]
		t.out = append(make([]Event, 0, max(eventBlock, 2*len(step))), step...)
		t.stepStart = 0
	}
	t.out = append(t.out, Event{Seq: t.seq, To: to, Body: b})
}

func (t *Table) dealer() Seat { return Seat(t.number - 1) }

// seatWind is s's wind this round.
func (t *Table) seatWind(s Seat) tile.Wind { return tile.Wind((s + NumSeats - t.dealer()) % NumSeats) }

// liveLeft is how many tiles are left to draw from the live wall.
func (r *round) liveLeft() int { return wall.LiveSize(r.kans) - r.next }

func (t *Table) check(a Action) error {
	switch t.phase {
	case GameOver:
		return refuse(a, ErrGameOver, "")
	case BetweenRounds:
		if a.Type != Deal {
			return refuse(a, ErrPhase, "waiting for a deal")
		}
		return t.checkDeal(a)
	case Turn:
		return t.checkTurn(a)
	case ClaimWindow:
		_, err := t.checkAnswer(a)
		return err
	}
	return refuse(a, ErrPhase, "")
}

func (t *Table) apply(a Action) {
	switch t.phase {
	case BetweenRounds:
		t.deal(a.Wall)
	case Turn:
		t.applyTurn(a)
	case ClaimWindow:
		t.answer(a)
	}
}

func (t *Table) checkDeal(a Action) error {
	if a.Wall == nil {
		return refuse(a, ErrBadAction, "no wall")
	}
	if err := a.Wall.Check(t.rules.Aka); err != nil {
		return refuse(a, ErrBadWall, "%v", err)
	}
	return nil
}

// deal starts a round on w and gives the dealer its first draw.
func (t *Table) deal(w *wall.Wall) {
	r := &t.r
	ponds := [NumSeats][]DiscardView{}
	for s := range r.seats {
		ponds[s] = r.seats[s].pond[:0]
	}
	*r = round{wall: *w, dora: 1, startScores: t.scores}
	r.doraInd[0] = w.Tiles[wall.DoraPos(0)]
	r.uraInd[0] = w.Tiles[wall.UraPos(0)]
	dealer := t.dealer()
	for off := range NumSeats {
		s := (dealer + Seat(off)) % NumSeats
		p := &r.seats[s]
		p.pond = ponds[s]
		p.hand = p.handBuf[:0]
		p.melds = p.meldBuf[:0]
		p.nagashi = true
		var dealt [13]tile.Tile
		for n := range dealt {
			dealt[n] = w.Tiles[wall.DealPos(off, n)]
		}
		p.dealHand(&dealt)
		p.updateWaits()
	}
	t.emit(Everyone, RoundStarted{
		RoundWind: t.wind, Number: t.number, Dealer: dealer, Honba: t.honba,
		RiichiSticks: t.sticks, Scores: t.scores, Dora: r.doraInd[0],
		WallLeft: r.liveLeft(), Index: t.rounds, Commitment: w.Commitment,
	})
	t.rounds++
	for off := range NumSeats {
		s := (dealer + Seat(off)) % NumSeats
		t.emit(Only(s), Dealt{Seat: s, Hand: t.copyTiles(r.seats[s].hand)})
	}
	t.draw(dealer, false)
}

// draw gives s the next tile of the live wall, or of the dead wall after a
// kan, and starts its turn.
func (t *Table) draw(s Seat, rinshan bool) {
	r := &t.r
	var x tile.Tile
	if rinshan {
		x = r.wall.Tiles[wall.RinshanPos(r.rinshan)]
		r.rinshan++
	} else {
		x = r.wall.Tiles[wall.LivePos(r.next)]
		r.next++
	}
	p := &r.seats[s]
	p.add(x)
	r.toAct, r.drawn, r.hasDrawn, r.drawnRinshan = s, x, true, rinshan
	p.forbid = 0
	t.phase = Turn
	left := r.liveLeft()
	t.emit(Everyone, drewBody(s, 0, false, rinshan, left))
	t.emit(Only(s), drewBody(s, x, true, rinshan, left))
	r.tsumo = false
	if p.waits.Has(x.Kind()) {
		res := t.score(s, x, true, false, t.honba, t.sticks)
		r.tsumo, r.tsumoRes = res.Win, res
	}
}

// score asks the judge what seat s's hand is worth with win: on the drawn
// tile (tsumo) or on a claimable tile. The hand must hold win when tsumo
// is set and must not hold it otherwise.
func (t *Table) score(s Seat, win tile.Tile, tsumo, chankan bool, honba, sticks int) judge.Result {
	r := &t.r
	p := &r.seats[s]
	var buf [14]tile.Tile
	concealed := append(buf[:0], p.hand...)
	if tsumo {
		concealed = removeTile(concealed, win)
	}
	h := judge.Hand{Concealed: concealed, Melds: p.jmelds[:len(p.melds)]}
	first := !r.interrupted && len(p.pond) == 0 && !r.drawnRinshan
	sit := judge.Situation{
		Tsumo:          tsumo,
		Riichi:         p.riichi,
		DoubleRiichi:   p.doubleRiichi,
		Ippatsu:        p.ippatsu,
		Rinshan:        tsumo && r.drawnRinshan,
		Chankan:        chankan,
		Haitei:         tsumo && !r.drawnRinshan && r.liveLeft() == 0,
		Houtei:         !tsumo && !chankan && r.liveLeft() == 0,
		Tenhou:         tsumo && first && s == t.dealer(),
		Chiihou:        tsumo && first && s != t.dealer(),
		SeatWind:       t.seatWind(s),
		RoundWind:      t.wind,
		DoraIndicators: r.doraInd[:r.dora],
		UraIndicators:  r.uraInd[:r.dora],
		Honba:          honba,
		RiichiSticks:   sticks,
	}
	return judge.Score(&h, win, &sit, &t.rules.Scoring)
}

// revealDora turns the next kan indicator face up.
func (t *Table) revealDora() {
	r := &t.r
	if r.dora >= wall.MaxDora {
		return
	}
	r.doraInd[r.dora] = r.wall.Tiles[wall.DoraPos(r.dora)]
	r.uraInd[r.dora] = r.wall.Tiles[wall.UraPos(r.dora)]
	r.dora++
	t.emit(Everyone, DoraRevealed{Indicator: r.doraInd[r.dora-1]})
}

// revealPending reveals the indicators of open and added kans that were
// waiting for the kan player's next discard or kan.
func (t *Table) revealPending() {
	for ; t.r.pending > 0; t.r.pending-- {
		t.revealDora()
	}
}
