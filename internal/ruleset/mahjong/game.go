// Package mahjong is the one adapter of the mahjong rule sets' table
// engines to the game-agnostic host (host.Game): riichi, Sichuan, MCR and
// classical differ in their engines, not in how a table runs them. Game
// seeds the table (package fair), checks whom an action is from before
// the engine sees it and names the engine's refusals for the error
// mapping, times the judge for the observer, deals every round a wall
// from the table seed with its commitment, marks the claim windows and
// the simultaneous choices, offers the seat to act an exact copy of its
// options, records the game and snapshots it between rounds.
//
// What sets a rule set apart is data and small functions in its Spec: its
// phases and action types, how to read its actions and events, which
// events open a claim window. A rule set's package keeps what is truly its
// own: options, conversions, codec, bot and record formats.
package mahjong

import (
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Seat is an engine's seat type.
type Seat interface{ ~uint8 }

// ActionType is an engine's type of action.
type ActionType interface {
	comparable
	String() string
}

// Engine is what the adapter needs of a rule set's table engine. Waiting
// reports whether the table waits for a seat; Default is what a seat that
// runs out of time plays (false when the table does not wait for it).
type Engine[A, V, E any, S Seat, P comparable] interface {
	Step(a A) ([]E, error)
	Legal(s S) []A
	AppendLegal(dst []A, s S) []A
	View(s S) V
	Phase() P
	Waiting(s S) bool
	Default(s S) (A, bool)
}

// IntoStepper is an Engine that appends a step's events to the caller's
// buffer (StepInto of the table engines). The adapter is done with a
// step's events before the next step, so it passes one buffer of its own
// each time and the engine keeps no block of events: Step cuts them from
// a block of 256 that stays live, 8 KB a table for nothing the table
// reads again.
type IntoStepper[A, E any] interface {
	StepInto(dst []E, a A) ([]E, error)
}

// Snapshotter is an Engine that snapshots itself between rounds: the host
// snapshots the tables of such an engine at every round boundary.
type Snapshotter[N any] interface {
	Snapshot() (N, error)
}

// Recorder is what the adapter needs of a rule set's recorder.
type Recorder[A, E any] interface {
	SetTable(id string)
	SetSeeds(commitment [32]byte, entropy [fair.Seats][]byte)
	Step(a A, evs []E)
	AppendBinary(dst []byte) ([]byte, error)
	Over() bool
}

// Phases are the engine's phases that the adapter tells apart.
type Phases[P comparable] struct {
	Turn, ClaimWindow P
	// Between is between rounds: the table waits for the system's deal.
	Between P
	Over    P
	// Choosing are phases in which every seat chooses at once, on the
	// turn timer (Sichuan's exchange and void choice).
	Choosing []P
}

// Actions are the engine's action types that the adapter tells apart.
type Actions[K comparable] struct {
	Deal, Discard K
	// Claims answer a claim window.
	Claims []K
	// Openers open a claim window: a discard, and the kans that may be
	// robbed.
	Openers []K
}

// Errors are the engine's sentinel errors, mapped to the server's
// reasons; whatever else it refuses is ruleset.ErrIllegal.
type Errors struct {
	BadAction, Over, NotToAct, Phase error
}

// Spec is what sets one rule set's adapter apart. Its functions are pure
// and quick: they run on the hot path.
type Spec[A comparable, V, B, E any, S Seat, P comparable, K ActionType, N any, R Recorder[A, E]] struct {
	// Round names a deal in errors: "round" or "hand".
	Round   string
	Seats   int
	Phases  Phases[P]
	Actions Actions[K]
	Errors  Errors

	// Action is an action's seat and type.
	Action func(A) (S, K)
	// Pass is a seat's pass.
	Pass func(S) A
	// Event is an event's body and audience.
	Event func(E) (b B, private bool, seat S)

	// Offer reports a claim offer; OpensWindow an event that belongs to
	// the opening of a claim window rather than to its resolution;
	// EndsRound the end of a round, for the observer; Simultaneous (nil:
	// none) the announcement of one seat's choice among the choices every
	// seat makes at once (host.Out.Simultaneous).
	Offer, OpensWindow, EndsRound, Simultaneous func(B) bool
	// TurnOffer tells the seat to act its options.
	TurnOffer func(s S, options []A) B

	// CheckWaiting (nil: none) checks more of an action from a seat the
	// table waits for, before the engine sees it.
	CheckWaiting func(eng Engine[A, V, E, S, P], a A) error
	// Refuse (nil: the action's type, the reason and the engine's error)
	// words a refusal of the engine, keeping reason and err in the chain.
	Refuse func(a A, reason, err error) error

	// The snapshots: the engine's (method expressions of its snapshot
	// type), where one stands (rounds dealt, phase), and the recorder's.
	MarshalSnapshot   func(*N) ([]byte, error)
	UnmarshalSnapshot func(*N, []byte) error
	SnapshotPoint     func(*N) (rounds int, phase P)
	RestoreRecorder   func([]byte) (R, error)
	RecordedRounds    func(R) int

	// legal holds *[]A: lists the engine appends a turn's options to
	// before the offer takes an exact copy, shared by the rule set's
	// tables (a list of its own per turn was an allocation and most of
	// a kilobyte per action; one per table would stay in memory).
	legal sync.Pool
}

// Table is what one table's game starts from.
type Table[A, V, E any, S Seat, P comparable, N any, R any] struct {
	Engine   Engine[A, V, E, S, P]
	Recorder R
	Server   [32]byte // the server's secret seed
	// Deal is the system's deal of a round: the wall shuffled from the
	// round's seed, with its commitment.
	Deal func(seed, commitment [32]byte) A
	// Restore makes an engine from a snapshot an engine of the same rules
	// took between rounds; nil: the game takes no snapshots.
	Restore  func(N) (Engine[A, V, E, S, P], error)
	Observer ruleset.Observer // nil: none
}

// Game adapts a rule set's engine to the host (host.Game, host.Seeder,
// host.Snapshotter).
type Game[A comparable, V, B, E any, S Seat, P comparable, K ActionType, N any, R Recorder[A, E]] struct {
	spec    *Spec[A, V, B, E, S, P, K, N, R]
	eng     Engine[A, V, E, S, P]
	rec     R
	deal    func(seed, commitment [32]byte) A
	restore func(N) (Engine[A, V, E, S, P], error)
	obs     ruleset.Observer
	server  [32]byte // the server's secret seed
	seed    [32]byte // the table seed: the server seed mixed with the entropy (package fair)
	tableID string
	rounds  uint32            // deals so far
	outs    []host.Out[B]     // Apply's answer, reused (host.Game lets it)
	evs     []E               // the step's events, reused when the engine is an IntoStepper
	into    IntoStepper[A, E] // eng, when it is one (setEngine)
}

// New makes the game of a table.
func New[A comparable, V, B, E any, S Seat, P comparable, K ActionType, N any, R Recorder[A, E]](spec *Spec[A, V, B, E, S, P, K, N, R], t Table[A, V, E, S, P, N, R]) *Game[A, V, B, E, S, P, K, N, R] {
	g := &Game[A, V, B, E, S, P, K, N, R]{
		spec: spec, rec: t.Recorder, deal: t.Deal, restore: t.Restore, obs: t.Observer,
		server: t.Server, seed: fair.TableSeed(t.Server, [fair.Seats][]byte{}),
	}
	g.setEngine(t.Engine)
	return g
}

// setEngine makes eng the game's engine, and finds once whether it steps
// into a buffer (into), rather than at every step.
func (g *Game[A, V, B, E, S, P, K, N, R]) setEngine(eng Engine[A, V, E, S, P]) {
	g.eng = eng
	g.into, _ = eng.(IntoStepper[A, E])
}

// Engine is the engine under the game, for tests and tools: in the
// table's calls only.
func (g *Game[A, V, B, E, S, P, K, N, R]) Engine() Engine[A, V, E, S, P] { return g.eng }

// Rounds is the number of rounds dealt so far.
func (g *Game[A, V, B, E, S, P, K, N, R]) Rounds() int { return int(g.rounds) }

// Seed takes the table's id and the players' entropy when the table
// starts (host.Seeder): the table seed becomes fair.TableSeed of the
// server seed and the entropy, and the commitments bind the id.
func (g *Game[A, V, B, E, S, P, K, N, R]) Seed(tableID string, entropy [][]byte) {
	var e [fair.Seats][]byte
	copy(e[:], entropy)
	g.tableID = tableID
	g.seed = fair.TableSeed(g.server, e)
	g.rec.SetTable(tableID)
	g.rec.SetSeeds(fair.SeedCommitment(g.server), e)
}

// Apply checks whom the action is from, steps the engine, and says what
// the host publishes: the engine's events, then the turn's offer.
func (g *Game[A, V, B, E, S, P, K, N, R]) Apply(a A) ([]host.Out[B], error) {
	sp := g.spec
	_, kind := sp.Action(a)
	if kind != sp.Actions.Deal {
		if err := g.precheck(a); err != nil {
			return nil, err
		}
	}
	var start time.Time
	if g.obs != nil && kind == sp.Actions.Discard {
		start = time.Now()
	}
	evs, err := g.step(a)
	if err != nil {
		return nil, g.spec.Classify(a, err)
	}
	if g.obs != nil {
		if !start.IsZero() {
			g.obs.Judged(time.Since(start))
		}
		for _, e := range evs {
			if b, _, _ := sp.Event(e); sp.EndsRound(b) {
				g.obs.RoundEnded()
			}
		}
	}
	if kind == sp.Actions.Deal {
		g.rounds++
	}
	g.rec.Step(a, evs)
	clear(g.outs) // the previous step's bodies go
	outs := slices.Grow(g.outs[:0], len(evs)+1)[:len(evs)]
	for i, e := range evs {
		b, private, seat := sp.Event(e)
		to := host.Everyone
		if private {
			to = host.Only(int(seat))
		}
		outs[i] = host.Out[B]{To: to, Body: b, Offer: sp.Offer(b), Simultaneous: sp.Simultaneous != nil && sp.Simultaneous(b)}
	}
	// A remote seat cannot work out its turn's options (a win needs the
	// judge and the situation, kans the rules), so the seat to act is told
	// them, as claim offers tell the others.
	if len(evs) > 0 && g.eng.Phase() == sp.Phases.Turn {
		for s := range S(sp.Seats) {
			if !g.eng.Waiting(s) {
				continue
			}
			if legal := g.legal(s); len(legal) > 0 {
				outs = append(outs, host.Out[B]{To: host.Only(int(s)), Body: sp.TurnOffer(s, legal), Offer: true})
			}
			break
		}
	}
	if slices.Contains(sp.Actions.Openers, kind) {
		g.markWindow(outs)
	}
	g.outs = outs
	return outs, nil
}

// step steps the engine: into the game's own buffer of events when the
// engine can (IntoStepper), which the next step reuses; nothing keeps a
// step's events past it, only their bodies (the outs, the record).
func (g *Game[A, V, B, E, S, P, K, N, R]) step(a A) ([]E, error) {
	if g.into == nil {
		return g.eng.Step(a)
	}
	clear(g.evs) // the previous step's bodies go
	evs, err := g.into.StepInto(g.evs[:0], a)
	if err != nil {
		return nil, err
	}
	g.evs = evs
	return evs, nil
}

// legal is seat s's options, exactly as many as there are: the offer
// stays in the table's log for the whole game.
func (g *Game[A, V, B, E, S, P, K, N, R]) legal(s S) []A {
	buf, _ := g.spec.legal.Get().(*[]A)
	if buf == nil {
		buf = new([]A)
	}
	scratch := g.eng.AppendLegal((*buf)[:0], s)
	var legal []A
	if len(scratch) > 0 {
		legal = slices.Clone(scratch)
	}
	clear(scratch) // no table's actions kept alive by the pool
	*buf = scratch[:0]
	g.spec.legal.Put(buf)
	return legal
}

// markWindow marks, after an action that opens a claim window, the last
// of the events that open it - the discard or the kan, what it reveals
// and the offers - for the host's claim dwell. It marks whether or not
// the engine made any offer: when nobody may claim, the engine resolves
// the window in the same step, and its events wait behind the mark like
// those of a window that was answered.
func (g *Game[A, V, B, E, S, P, K, N, R]) markWindow(outs []host.Out[B]) {
	n := 0
	for n < len(outs) && g.spec.OpensWindow(outs[n].Body) {
		n++
	}
	if n > 0 {
		outs[n-1].Dwell = true
	}
}

func (g *Game[A, V, B, E, S, P, K, N, R]) isClaim(k K) bool {
	return slices.Contains(g.spec.Actions.Claims, k)
}

// precheck refuses, with the precise reason, an action of a seat the
// table does not wait for; the engine checks the rest.
func (g *Game[A, V, B, E, S, P, K, N, R]) precheck(a A) error {
	seat, kind := g.spec.Action(a)
	if int(seat) >= g.spec.Seats {
		return fmt.Errorf("seat %d: %w", seat, ruleset.ErrMalformed)
	}
	if g.eng.Waiting(seat) {
		if g.spec.CheckWaiting != nil {
			return g.spec.CheckWaiting(g.eng, a)
		}
		return nil
	}
	ph := g.eng.Phase()
	switch window := ph == g.spec.Phases.ClaimWindow; {
	case ph == g.spec.Phases.Over:
		return host.ErrGameOver
	case g.isClaim(kind) || window:
		if window && !g.isClaim(kind) {
			return fmt.Errorf("%v during a claim window: %w", kind, ruleset.ErrNotYourTurn)
		}
		return fmt.Errorf("%v: %w", kind, ruleset.ErrClaimClosed)
	}
	return fmt.Errorf("%v: %w", kind, ruleset.ErrNotYourTurn)
}

// Classify names the reason of an engine's refusal err of a for the
// error mapping, keeping the engine's error in the chain. Whatever the
// engine does not single out is an illegal action.
func (sp *Spec[A, V, B, E, S, P, K, N, R]) Classify(a A, err error) error {
	_, kind := sp.Action(a)
	reason := reason(sp.Errors, slices.Contains(sp.Actions.Claims, kind), err)
	if sp.Refuse != nil {
		return sp.Refuse(a, reason, err)
	}
	return fmt.Errorf("%v: %w: %w", kind, reason, err)
}

// ActionKind names an action's type for the host's observer
// (host.Config.ActionKind).
func (sp *Spec[A, V, B, E, S, P, K, N, R]) ActionKind(a A) string {
	_, k := sp.Action(a)
	return k.String()
}

// reason is the server's reason for an engine's refusal err of an action,
// claim telling whether the action answers a claim window.
func reason(e Errors, claim bool, err error) error {
	switch {
	case errors.Is(err, e.BadAction):
		return ruleset.ErrMalformed
	case errors.Is(err, e.Over):
		return host.ErrGameOver
	case errors.Is(err, e.NotToAct), errors.Is(err, e.Phase):
		if claim {
			return ruleset.ErrClaimClosed
		}
		return ruleset.ErrNotYourTurn
	}
	return ruleset.ErrIllegal
}

// View is a seat's view.
func (g *Game[A, V, B, E, S, P, K, N, R]) View(seat int) V { return g.eng.View(S(seat)) }

// Pending says whom the table waits for: the system between rounds; in a
// turn (and a phase where every seat chooses) the seats to act, on the
// turn timer; in a claim window the seats with unanswered offers.
func (g *Game[A, V, B, E, S, P, K, N, R]) Pending() host.Pending {
	var kind host.WaitKind
	switch ph, phases := g.eng.Phase(), &g.spec.Phases; {
	case ph == phases.Between:
		return host.Pending{Kind: host.WaitSystem}
	case ph == phases.Turn || slices.Contains(phases.Choosing, ph):
		kind = host.WaitTurn
	case ph == phases.ClaimWindow:
		kind = host.WaitClaim
	default:
		return host.Pending{}
	}
	// The host asks after every action: one seat (a turn, most claim
	// windows) is a shared slice, several one exact allocation.
	var buf [maxSeats]int
	waiting := buf[:0]
	for s := range S(g.spec.Seats) {
		if g.eng.Waiting(s) {
			waiting = append(waiting, int(s))
		}
	}
	switch {
	case len(waiting) == 0:
		return host.Pending{Kind: kind}
	case len(waiting) == 1 && waiting[0] < maxSeats:
		return host.Pending{Kind: kind, Seats: oneSeat[waiting[0]][:1:1]}
	}
	return host.Pending{Kind: kind, Seats: slices.Clone(waiting)}
}

// maxSeats is the most seats a mahjong table has.
const maxSeats = 4

// oneSeat[s] is the list of seat s alone, shared by every Pending (which
// no caller changes).
var oneSeat = [maxSeats][1]int{{0}, {1}, {2}, {3}}

// Default is what a seat that runs out of time plays (the engine's
// Default), or for the system the next deal: the wall of the round's seed,
// derived from the table seed, with its commitment.
func (g *Game[A, V, B, E, S, P, K, N, R]) Default(seat int) A {
	if seat == host.System {
		seed := fair.RoundSeed(g.seed, g.rounds)
		return g.deal(seed, fair.Commit(seed, g.tableID, g.rounds))
	}
	if a, ok := g.eng.Default(S(seat)); ok {
		return a
	}
	// Not pending: Default is only asked for pending seats.
	return g.spec.Pass(S(seat))
}

// Over reports whether the game is over.
func (g *Game[A, V, B, E, S, P, K, N, R]) Over() bool {
	return g.eng.Phase() == g.spec.Phases.Over
}

// The game's snapshots (host.Snapshotter): between rounds, the engine's
// snapshot and the record so far; the table's seed and id come back
// through Seed, which the host calls before Restore.

// Boundary reports whether the game is between rounds (after the first)
// or over, with an engine that snapshots itself.
func (g *Game[A, V, B, E, S, P, K, N, R]) Boundary() bool {
	if _, ok := g.eng.(Snapshotter[N]); !ok || g.restore == nil {
		return false
	}
	ph := g.eng.Phase()
	return ph == g.spec.Phases.Over || ph == g.spec.Phases.Between && g.rounds > 0
}

// AppendSnapshot appends the game's snapshot (ruleset.AppendGameSnapshot):
// the engine's and the recorder's.
func (g *Game[A, V, B, E, S, P, K, N, R]) AppendSnapshot(dst []byte) ([]byte, error) {
	se, ok := g.eng.(Snapshotter[N])
	if !ok || !g.Boundary() {
		return dst, fmt.Errorf("game snapshot: not at a %s boundary", g.spec.Round)
	}
	s, err := se.Snapshot()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := g.spec.MarshalSnapshot(&s)
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	return ruleset.AppendGameSnapshot(dst, eng, g.rec.AppendBinary)
}

// Restore sets a new game, seeded, to a snapshot AppendSnapshot wrote.
func (g *Game[A, V, B, E, S, P, K, N, R]) Restore(state []byte) error {
	if g.restore == nil {
		return errors.New("game snapshot: the server restores no engines")
	}
	engRaw, recRaw, err := ruleset.SplitGameSnapshot(state)
	if err != nil {
		return err
	}
	var s N
	if err := g.spec.UnmarshalSnapshot(&s, engRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := g.restore(s)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	rec, err := g.spec.RestoreRecorder(recRaw)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	rounds, phase := g.spec.SnapshotPoint(&s)
	if recorded := g.spec.RecordedRounds(rec); recorded != rounds || rec.Over() != (phase == g.spec.Phases.Over) {
		return fmt.Errorf("game snapshot: a record of %d %ss (over %t) for an engine after %d (%v)", recorded, g.spec.Round, rec.Over(), rounds, phase)
	}
	g.setEngine(eng)
	g.rec, g.rounds = rec, uint32(rounds)
	return nil
}

// Record takes the record of a hosted game so far, in the table's
// goroutine (ruleset.Parts.Record): read reads the game's recorder into
// the form ExportGame writes, given the server seed (hex) to reveal once
// the game is over.
func (sp *Spec[A, V, B, E, S, P, K, N, R]) Record(hg host.Game[A, V, B], read func(rec R, serverSeed string) (ruleset.Record, error)) (ruleset.Record, error) {
	g, ok := hg.(*Game[A, V, B, E, S, P, K, N, R])
	if !ok {
		return nil, ruleset.ErrNoRecord
	}
	return read(g.rec, hex.EncodeToString(g.server[:]))
}
