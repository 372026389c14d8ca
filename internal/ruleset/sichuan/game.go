package sichuan

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/ruleset"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// game adapts an Engine to the host, as riichi's adapter does: it says
// whom the table waits for and what a timed-out seat plays (the engine's
// Default: the exchange and void choices included), deals each hand a
// wall from the table's seed with its commitment, marks the claim windows
// for the dwell and the announcements of the choices every seat makes at
// once, tells the seat to act its options, and records the match.
type game struct {
	eng     Engine
	restore RestoreEngine // nil: no snapshots
	rules   sc.Rules
	walls   NewWall
	server  [32]byte // the server's secret seed
	seed    [32]byte // the table seed (package fair)
	tableID string
	hands   uint32 // deals so far
	rec     *rsc.Recorder
	obs     ruleset.Observer // nil: none
}

func makeGame(eng Engine, restore RestoreEngine, walls NewWall, rules sc.Rules, server [32]byte) *game {
	return &game{
		eng: eng, restore: restore, rules: rules, walls: walls, server: server,
		seed: fair.TableSeed(server, [fair.Seats][]byte{}),
		rec:  rsc.NewRecorder("", rules),
	}
}

// Seed takes the table's id and the players' entropy when the table
// starts (host.Seeder).
func (g *game) Seed(tableID string, entropy [][]byte) {
	var e [fair.Seats][]byte
	copy(e[:], entropy)
	g.tableID = tableID
	g.seed = fair.TableSeed(g.server, e)
	g.rec.SetTable(tableID)
	g.rec.SetSeeds(fair.SeedCommitment(g.server), e)
}

func (g *game) Apply(a sc.Action) ([]host.Out[sc.Body], error) {
	if a.Type != sc.Deal {
		if err := g.precheck(a); err != nil {
			return nil, err
		}
	}
	var start time.Time
	if g.obs != nil && a.Type == sc.Discard {
		start = time.Now()
	}
	evs, err := g.eng.Step(a)
	if err != nil {
		return nil, classify(a, err)
	}
	if g.obs != nil {
		if !start.IsZero() {
			g.obs.Judged(time.Since(start))
		}
		for _, e := range evs {
			if _, ok := e.Body.(sc.HandEnded); ok {
				g.obs.RoundEnded()
			}
		}
	}
	if a.Type == sc.Deal {
		g.hands++
	}
	g.rec.Step(a, evs)
	outs := make([]host.Out[sc.Body], len(evs), len(evs)+1)
	for i, e := range evs {
		to := host.Everyone
		if e.To.Private {
			to = host.Only(int(e.To.Seat))
		}
		_, offer := e.Body.(sc.ClaimOffer)
		outs[i] = host.Out[sc.Body]{To: to, Body: e.Body, Offer: offer, Simultaneous: simultaneous(e.Body)}
	}
	// A remote seat cannot work out its turn's options (a self-draw needs
	// the judge, the void-first rule and kans the rules), so the seat to
	// act is told them, as claim offers tell the others.
	if len(evs) > 0 && g.eng.Phase() == sc.Turn {
		for s := range sc.Seat(sc.NumSeats) {
			if g.eng.Waiting(s) {
				// The offer stays in the table's log for the whole game: an exact
				// copy of the options, not the engine's roomier slice.
				outs = append(outs, host.Out[sc.Body]{To: host.Only(int(s)), Body: sc.TurnOffer{Seat: s, Options: slices.Clone(g.eng.Legal(s))}, Offer: true})
				break
			}
		}
	}
	markWindow(a, outs)
	return outs, nil
}

// simultaneous reports whether b announces one seat's choice in the
// exchange or the void choice, which every seat makes at once: it changes
// nothing another seat may choose, so the host takes a choice sent before
// it (host.Out.Simultaneous). The events that end those phases are not.
func simultaneous(b sc.Body) bool {
	switch b.(type) {
	case sc.ExchangeChosen, sc.VoidChosen:
		return true
	}
	return false
}

// markWindow marks, after a discard or an added kan (which may be robbed;
// a closed kan may not), the last of the events that open the claim
// window - the discard or the kan and the offers - for the host's claim
// dwell, whether or not anyone may claim.
func markWindow(a sc.Action, outs []host.Out[sc.Body]) {
	if a.Type != sc.Discard && a.Type != sc.AddedKan {
		return
	}
	n := 0
	for n < len(outs) && opensWindow(outs[n].Body) {
		n++
	}
	if n > 0 {
		outs[n-1].Dwell = true
	}
}

func opensWindow(b sc.Body) bool {
	switch b := b.(type) {
	case sc.Discarded, sc.ClaimOffer:
		return true
	case sc.Called:
		return b.Meld.Type == sc.MeldAddedKan
	}
	return false
}

func isClaim(t sc.ActionType) bool {
	switch t {
	case sc.Pon, sc.OpenKan, sc.Ron, sc.Pass:
		return true
	}
	return false
}

// precheck refuses, with the precise reason, an action of a seat the
// table does not wait for; the engine checks the rest.
func (g *game) precheck(a sc.Action) error {
	if a.Seat >= sc.NumSeats {
		return fmt.Errorf("seat %d: %w", a.Seat, ruleset.ErrMalformed)
	}
	if g.eng.Waiting(a.Seat) {
		return nil
	}
	switch ph := g.eng.Phase(); {
	case ph == sc.MatchOver:
		return host.ErrGameOver
	case isClaim(a.Type) || ph == sc.ClaimWindow:
		if ph == sc.ClaimWindow && !isClaim(a.Type) {
			return fmt.Errorf("%v during a claim window: %w", a.Type, ruleset.ErrNotYourTurn)
		}
		return fmt.Errorf("%v: %w", a.Type, ruleset.ErrClaimClosed)
	}
	return fmt.Errorf("%v: %w", a.Type, ruleset.ErrNotYourTurn)
}

// classify names the reason of an engine's refusal for the error mapping,
// keeping the engine's error in the chain.
func classify(a sc.Action, err error) error {
	reason := ruleset.ErrIllegal
	switch {
	case errors.Is(err, sc.ErrBadAction):
		reason = ruleset.ErrMalformed
	case errors.Is(err, sc.ErrMatchOver):
		reason = host.ErrGameOver
	case errors.Is(err, sc.ErrNotToAct), errors.Is(err, sc.ErrPhase):
		reason = ruleset.ErrNotYourTurn
		if isClaim(a.Type) {
			reason = ruleset.ErrClaimClosed
		}
	}
	return fmt.Errorf("%v: %w: %w", a.Type, reason, err)
}

func (g *game) View(seat int) sc.View { return g.eng.View(sc.Seat(seat)) }

// Pending: the exchange and the void choice wait for every seat that has
// not chosen, on the turn timer; a turn for its seat; a claim window for
// the seats with unanswered offers.
func (g *game) Pending() host.Pending {
	var kind host.WaitKind
	switch g.eng.Phase() {
	case sc.BetweenHands:
		return host.Pending{Kind: host.WaitSystem}
	case sc.Exchanging, sc.ChoosingVoid, sc.Turn:
		kind = host.WaitTurn
	case sc.ClaimWindow:
		kind = host.WaitClaim
	default:
		return host.Pending{}
	}
	p := host.Pending{Kind: kind}
	for s := range sc.Seat(sc.NumSeats) {
		if g.eng.Waiting(s) {
			p.Seats = append(p.Seats, int(s))
		}
	}
	return p
}

// Default is what a seat that runs out of time plays (the engine's
// Default: three tiles of its shortest suit, the void of its fewest, a
// void tile or the drawn tile, a pass). For the system it deals the next
// hand: the wall of the hand's seed, with its commitment.
func (g *game) Default(seat int) sc.Action {
	if seat == host.System {
		seed := fair.RoundSeed(g.seed, g.hands)
		w := g.walls(seed)
		w.Commitment = fair.Commit(seed, g.tableID, g.hands)
		return sc.Action{Type: sc.Deal, Wall: &w}
	}
	s := sc.Seat(seat)
	if a, ok := g.eng.Default(s); ok {
		return a
	}
	// Not pending: Default is only asked for pending seats.
	return sc.Action{Seat: s, Type: sc.Pass}
}

func (g *game) Over() bool { return g.eng.Phase() == sc.MatchOver }

// The game's snapshots (host.Snapshotter): between hands, the engine's
// snapshot and the recorder's state.

// Boundary reports whether the game is between hands (after the first) or
// over, with an engine that snapshots itself.
func (g *game) Boundary() bool {
	if _, ok := g.eng.(snapshotEngine); !ok || g.restore == nil {
		return false
	}
	ph := g.eng.Phase()
	return ph == sc.MatchOver || ph == sc.BetweenHands && g.hands > 0
}

// AppendSnapshot appends a version byte, the engine's snapshot prefixed
// with its length, and to the end the recorder's state.
func (g *game) AppendSnapshot(dst []byte) ([]byte, error) {
	se, ok := g.eng.(snapshotEngine)
	if !ok || !g.Boundary() {
		return dst, errors.New("game snapshot: not at a hand boundary")
	}
	s, err := se.Snapshot()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := s.MarshalBinary()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	return ruleset.AppendGameSnapshot(dst, eng, g.rec.AppendBinary)
}

// Restore sets a new game, seeded, to a snapshot AppendSnapshot wrote.
func (g *game) Restore(state []byte) error {
	if g.restore == nil {
		return errors.New("game snapshot: the server restores no engines")
	}
	engRaw, recRaw, err := ruleset.SplitGameSnapshot(state)
	if err != nil {
		return err
	}
	var s sc.Snapshot
	if err := s.UnmarshalBinary(engRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := g.restore(sc.Config{Rules: g.rules}, s)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	rec, err := rsc.RestoreRecorder(recRaw)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if rec.Rounds() != s.Hands || rec.Over() != (s.Phase == sc.MatchOver) {
		return fmt.Errorf("game snapshot: a record of %d hands (over %t) for an engine after %d (%v)", rec.Rounds(), rec.Over(), s.Hands, s.Phase)
	}
	g.eng, g.rec, g.hands = eng, rec, uint32(s.Hands)
	return nil
}
