package mcr

import (
	"errors"
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// game adapts the engine to the host: it says whom the table waits for,
// what a timed-out seat plays, deals each hand a 144-tile wall from the
// table's seed with its commitment, tells the seat to act its options,
// marks claim windows for the dwell, and records the game.
type game struct {
	eng     *tbl.Table
	rules   tbl.Rules
	server  [32]byte // the server's secret seed
	seed    [32]byte // the table seed: the server seed mixed with the entropy
	tableID string
	hands   uint32 // deals so far
	rec     *rmcr.Recorder
}

func newGame(eng *tbl.Table, rules tbl.Rules, server [32]byte) *game {
	return &game{
		eng: eng, rules: rules, server: server,
		seed: fair.TableSeed(server, [fair.Seats][]byte{}),
		rec:  rmcr.NewRecorder(rules),
	}
}

// Seed takes the table's id and the players' entropy when the table
// starts (host.Seeder), as riichi's game does.
func (g *game) Seed(tableID string, entropy [][]byte) {
	var e [fair.Seats][]byte
	copy(e[:], entropy)
	g.tableID = tableID
	g.seed = fair.TableSeed(g.server, e)
	g.rec.SetTable(tableID)
	g.rec.SetSeeds(fair.SeedCommitment(g.server), e)
}

func (g *game) Apply(a tbl.Action) ([]host.Out[tbl.Body], error) {
	if a.Type != tbl.Deal {
		if err := g.precheck(a); err != nil {
			return nil, err
		}
	}
	evs, err := g.eng.Step(a)
	if err != nil {
		return nil, classify(a, err)
	}
	if a.Type == tbl.Deal {
		g.hands++
	}
	g.rec.Step(a, evs)
	outs := make([]host.Out[tbl.Body], len(evs), len(evs)+1)
	for i, e := range evs {
		to := host.Everyone
		if e.To.Private {
			to = host.Only(int(e.To.Seat))
		}
		_, offer := e.Body.(tbl.ClaimOffer)
		outs[i] = host.Out[tbl.Body]{To: to, Body: e.Body, Offer: offer}
	}
	// Whether a hand reaches the 8-fan minimum depends on flags only the
	// table knows (last tile of its kind, replacement, last tile), so the
	// seat to act is told its options, as claim offers tell the others.
	if s, ok := g.eng.ToAct(); ok && len(evs) > 0 {
		if legal := g.eng.Legal(s); len(legal) > 0 {
			// The offer stays in the table's log for the whole game: an exact
			// copy of the options, not the engine's roomier slice.
			outs = append(outs, host.Out[tbl.Body]{To: host.Only(int(s)), Body: tbl.TurnOffer{Seat: s, Options: slices.Clone(legal)}, Offer: true})
		}
	}
	markWindow(a, outs)
	return outs, nil
}

// markWindow marks, after a discard or an added kong, the last of the
// events that open the claim window (the discard or the kong, and the
// offers) for the host's claim dwell, whether or not anyone may claim:
// when nobody may, the engine resolves the window in the same step and
// what follows waits behind the mark like the answer to a window.
func markWindow(a tbl.Action, outs []host.Out[tbl.Body]) {
	if a.Type != tbl.Discard && a.Type != tbl.AddedKan {
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

func opensWindow(b tbl.Body) bool {
	switch b := b.(type) {
	case tbl.Discarded, tbl.ClaimOffer:
		return true
	case tbl.Called:
		return b.Meld.Type == tbl.MeldAddedKan
	}
	return false
}

func isClaim(t tbl.ActionType) bool {
	switch t {
	case tbl.Chi, tbl.Pon, tbl.OpenKan, tbl.Ron, tbl.Pass:
		return true
	}
	return false
}

// precheck refuses, with the precise reason, an action of a seat that has
// nothing to do now, and a claim that names another tile than the one
// claimed; the engine checks the rest.
func (g *game) precheck(a tbl.Action) error {
	if a.Seat >= tbl.NumSeats {
		return fmt.Errorf("seat %d: %w", a.Seat, ruleset.ErrMalformed)
	}
	if g.eng.Waiting(a.Seat) {
		if a.Tile != 0 && isClaim(a.Type) {
			if x, ok := g.eng.ClaimTile(); !ok || x != a.Tile {
				return fmt.Errorf("%v names %v, not the tile claimed: %w", a.Type, a.Tile, ruleset.ErrIllegal)
			}
		}
		return nil
	}
	switch ph := g.eng.Phase(); {
	case ph == tbl.GameOver:
		return host.ErrGameOver
	case isClaim(a.Type) || ph == tbl.ClaimWindow:
		if ph == tbl.ClaimWindow && !isClaim(a.Type) {
			return fmt.Errorf("%v during a claim window: %w", a.Type, ruleset.ErrNotYourTurn)
		}
		return fmt.Errorf("%v: %w", a.Type, ruleset.ErrClaimClosed)
	}
	return fmt.Errorf("%v: %w", a.Type, ruleset.ErrNotYourTurn)
}

// classify names the reason of an engine's refusal for the error mapping,
// keeping the engine's error in the chain.
func classify(a tbl.Action, err error) error {
	reason := ruleset.ErrIllegal
	switch {
	case errors.Is(err, tbl.ErrBadAction):
		reason = ruleset.ErrMalformed
	case errors.Is(err, tbl.ErrGameOver):
		reason = host.ErrGameOver
	case errors.Is(err, tbl.ErrNotToAct), errors.Is(err, tbl.ErrPhase):
		reason = ruleset.ErrNotYourTurn
		if isClaim(a.Type) {
			reason = ruleset.ErrClaimClosed
		}
	}
	return fmt.Errorf("%v: %w: %w", a.Type, reason, err)
}

func (g *game) View(seat int) tbl.View { return g.eng.View(tbl.Seat(seat)) }

func (g *game) Pending() host.Pending {
	var kind host.WaitKind
	switch g.eng.Phase() {
	case tbl.BetweenHands:
		return host.Pending{Kind: host.WaitSystem}
	case tbl.Turn:
		kind = host.WaitTurn
	case tbl.ClaimWindow:
		kind = host.WaitClaim
	default:
		return host.Pending{}
	}
	p := host.Pending{Kind: kind}
	for s := range tbl.Seat(tbl.NumSeats) {
		if g.eng.Waiting(s) {
			p.Seats = append(p.Seats, int(s))
		}
	}
	return p
}

// Default is what a seat that runs out of time plays (the engine's
// Default: the tile just drawn, or a pass; never a win). For the system
// it deals the next hand: the wall of the hand's seed, derived from the
// table seed, with its commitment.
func (g *game) Default(seat int) tbl.Action {
	if seat == host.System {
		seed := fair.RoundSeed(g.seed, g.hands)
		w := wall.New144(seed)
		w.Commitment = fair.Commit(seed, g.tableID, g.hands)
		return tbl.Action{Type: tbl.Deal, Wall: &w}
	}
	if a, ok := g.eng.Default(tbl.Seat(seat)); ok {
		return a
	}
	return tbl.Action{Seat: tbl.Seat(seat), Type: tbl.Pass} // not pending: Default is only asked for pending seats
}

func (g *game) Over() bool { return g.eng.Phase() == tbl.GameOver }

// The game's snapshots (host.Snapshotter): between hands, the engine's
// snapshot and the record so far; the seeds come back through Seed.

// Boundary reports whether the game is between hands (after the first)
// or over.
func (g *game) Boundary() bool {
	ph := g.eng.Phase()
	return ph == tbl.GameOver || ph == tbl.BetweenHands && g.hands > 0
}

// AppendSnapshot appends a version byte, the engine's snapshot prefixed
// with its length and the recorder's state.
func (g *game) AppendSnapshot(dst []byte) ([]byte, error) {
	if !g.Boundary() {
		return dst, errors.New("game snapshot: not between hands")
	}
	s, err := g.eng.Snapshot()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := s.MarshalBinary()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	return ruleset.AppendGameSnapshot(dst, eng, g.rec.AppendBinary)
}

// Restore sets a new, seeded game to a snapshot AppendSnapshot wrote.
func (g *game) Restore(state []byte) error {
	engRaw, recRaw, err := ruleset.SplitGameSnapshot(state)
	if err != nil {
		return err
	}
	var s tbl.Snapshot
	if err := s.UnmarshalBinary(engRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := tbl.Restore(tbl.Config{Rules: g.rules}, s)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	rec, err := rmcr.RestoreRecorder(recRaw)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if rec.Hands() != s.Hands || rec.Over() != (s.Phase == tbl.GameOver) {
		return fmt.Errorf("game snapshot: a record of %d hands (over %t) for an engine after %d (%v)", rec.Hands(), rec.Over(), s.Hands, s.Phase)
	}
	g.eng, g.rec, g.hands = eng, rec, uint32(s.Hands)
	return nil
}
