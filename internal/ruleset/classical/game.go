package classical

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// game adapts an Engine to the host, as riichi's adapter does: it says
// whom the table waits for and what a timed-out seat plays (the engine's
// Default), deals each hand a wall from the table's seed with its
// commitment, marks the claim windows for the dwell, tells the seat to
// act its options, and records the game.
type game struct {
	eng     Engine
	restore RestoreEngine // nil: no snapshots
	rules   ct.Rules
	walls   NewWall
	server  [32]byte // the server's secret seed
	seed    [32]byte // the table seed (package fair)
	tableID string
	hands   uint32 // deals so far
	rec     *rcl.Recorder
}

func makeGame(eng Engine, restore RestoreEngine, walls NewWall, rules ct.Rules, server [32]byte) *game {
	return &game{
		eng: eng, restore: restore, rules: rules, walls: walls, server: server,
		seed: fair.TableSeed(server, [fair.Seats][]byte{}),
		rec:  rcl.NewRecorder("", rules),
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

func (g *game) Apply(a ct.Action) ([]host.Out[ct.Body], error) {
	if a.Type != ct.Deal {
		if err := g.precheck(a); err != nil {
			return nil, err
		}
	}
	evs, err := g.eng.Step(a)
	if err != nil {
		return nil, classify(a, err)
	}
	if a.Type == ct.Deal {
		g.hands++
	}
	g.rec.Step(a, evs)
	outs := make([]host.Out[ct.Body], len(evs), len(evs)+1)
	for i, e := range evs {
		to := host.Everyone
		if e.To.Private {
			to = host.Only(int(e.To.Seat))
		}
		_, offer := e.Body.(ct.ClaimOffer)
		outs[i] = host.Out[ct.Body]{To: to, Body: e.Body, Offer: offer}
	}
	// A remote seat cannot work out its turn's options (Mah Jong and
	// fishing need the judge), so the seat to act is told them, as claim
	// offers tell the others.
	if len(evs) > 0 && g.eng.Phase() == ct.Turn {
		for s := range ct.Seat(ct.NumSeats) {
			if g.eng.Waiting(s) {
				// The offer stays in the table's log for the whole game: an exact
				// copy of the options, not the engine's roomier slice.
				outs = append(outs, host.Out[ct.Body]{To: host.Only(int(s)), Body: ct.TurnOffer{Seat: s, Options: slices.Clone(g.eng.Legal(s))}, Offer: true})
				break
			}
		}
	}
	markWindow(a, outs)
	return outs, nil
}

// markWindow marks, after a discard or an added kong (which may be
// robbed), the last of the events that open the claim window - the
// discard or the kong and the offers - for the host's claim dwell,
// whether or not anyone may claim.
func markWindow(a ct.Action, outs []host.Out[ct.Body]) {
	if a.Type != ct.Discard && a.Type != ct.AddedKong {
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

func opensWindow(b ct.Body) bool {
	switch b.(type) {
	case ct.Discarded, ct.Called, ct.ClaimOffer:
		return true
	}
	return false
}

func isClaim(t ct.ActionType) bool {
	switch t {
	case ct.Chow, ct.Pung, ct.Kong, ct.Pass:
		return true
	}
	return false
}

// precheck refuses, with the precise reason, an action of a seat the
// table does not wait for; the engine checks the rest.
func (g *game) precheck(a ct.Action) error {
	if a.Seat >= ct.NumSeats {
		return fmt.Errorf("seat %d: %w", a.Seat, ruleset.ErrMalformed)
	}
	if g.eng.Waiting(a.Seat) {
		return nil
	}
	switch ph := g.eng.Phase(); {
	case ph == ct.GameOver:
		return host.ErrGameOver
	case isClaim(a.Type) || ph == ct.ClaimWindow:
		if ph == ct.ClaimWindow && !isClaim(a.Type) {
			return fmt.Errorf("%v during a claim window: %w", a.Type, ruleset.ErrNotYourTurn)
		}
		return fmt.Errorf("%v: %w", a.Type, ruleset.ErrClaimClosed)
	}
	return fmt.Errorf("%v: %w", a.Type, ruleset.ErrNotYourTurn)
}

// classify names the reason of an engine's refusal for the error mapping,
// keeping the engine's error in the chain.
func classify(a ct.Action, err error) error {
	reason := ruleset.ErrIllegal
	switch {
	case errors.Is(err, ct.ErrBadAction):
		reason = ruleset.ErrMalformed
	case errors.Is(err, ct.ErrGameOver):
		reason = host.ErrGameOver
	case errors.Is(err, ct.ErrNotToAct), errors.Is(err, ct.ErrPhase):
		reason = ruleset.ErrNotYourTurn
		if isClaim(a.Type) {
			reason = ruleset.ErrClaimClosed
		}
	}
	return fmt.Errorf("%v: %w: %w", a.Type, reason, err)
}

func (g *game) View(seat int) ct.View { return g.eng.View(ct.Seat(seat)) }

// Pending: a turn waits for its seat; a claim window for the seats with
// unanswered offers.
func (g *game) Pending() host.Pending {
	var kind host.WaitKind
	switch g.eng.Phase() {
	case ct.BetweenHands:
		return host.Pending{Kind: host.WaitSystem}
	case ct.Turn:
		kind = host.WaitTurn
	case ct.ClaimWindow:
		kind = host.WaitClaim
	default:
		return host.Pending{}
	}
	p := host.Pending{Kind: kind}
	for s := range ct.Seat(ct.NumSeats) {
		if g.eng.Waiting(s) {
			p.Seats = append(p.Seats, int(s))
		}
	}
	return p
}

// Default is what a seat that runs out of time plays (the engine's
// Default: the drawn tile, or a pass). For the system it deals the next
// hand: the wall of the hand's seed, with its commitment.
func (g *game) Default(seat int) ct.Action {
	if seat == host.System {
		seed := fair.RoundSeed(g.seed, g.hands)
		w := g.walls(seed)
		w.Commitment = fair.Commit(seed, g.tableID, g.hands)
		return ct.Action{Type: ct.Deal, Wall: &w}
	}
	s := ct.Seat(seat)
	if a, ok := g.eng.Default(s); ok {
		return a
	}
	// Not pending: Default is only asked for pending seats.
	return ct.Action{Seat: s, Type: ct.Pass}
}

func (g *game) Over() bool { return g.eng.Phase() == ct.GameOver }

// The game's snapshots (host.Snapshotter): between hands, the engine's
// snapshot and the recorder's state.

// Boundary reports whether the game is between hands (after the first) or
// over, with an engine that snapshots itself.
func (g *game) Boundary() bool {
	if _, ok := g.eng.(snapshotEngine); !ok || g.restore == nil {
		return false
	}
	ph := g.eng.Phase()
	return ph == ct.GameOver || ph == ct.BetweenHands && g.hands > 0
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
	var s ct.Snapshot
	if err := s.UnmarshalBinary(engRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := g.restore(ct.Config{Rules: g.rules}, s)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	rec, err := rcl.RestoreRecorder(recRaw)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if rec.Rounds() != s.Hands || rec.Over() != (s.Phase == ct.GameOver) {
		return fmt.Errorf("game snapshot: a record of %d hands (over %t) for an engine after %d (%v)", rec.Rounds(), rec.Over(), s.Hands, s.Phase)
	}
	g.eng, g.rec, g.hands = eng, rec, uint32(s.Hands)
	return nil
}
