package riichi

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Engine is what the server needs of a table engine: *table.Table has
// these methods. Tests run the server on a small fake.
type Engine interface {
	Step(a table.Action) ([]table.Event, error)
	Legal(s table.Seat) []table.Action
	View(s table.Seat) table.View
	Phase() table.Phase
}

// NewEngine makes the engine of a new table.
type NewEngine func(cfg table.Config) (Engine, error)

// RestoreEngine makes an engine from a snapshot that an engine of the same
// config took between rounds (table.Restore).
type RestoreEngine func(cfg table.Config, s table.Snapshot) (Engine, error)

// snapshotEngine is an Engine that snapshots itself between rounds, as
// *table.Table does: the tables of such an engine are snapshotted by the
// host at every round boundary.
type snapshotEngine interface {
	Engine
	Snapshot() (table.Snapshot, error)
}

// NewWall shuffles a round's wall from its seed.
type NewWall func(seed [32]byte, aka bool) wall.Wall

// game adapts an Engine to the host: it says whom the table waits for,
// what a timed-out seat plays (tsumogiri, pass), deals each round a wall
// from the table's seed with its commitment, and records the game.
type game struct {
	eng     Engine
	restore RestoreEngine // nil: no snapshots
	rules   table.Rules
	walls   NewWall
	aka     bool
	server  [32]byte // the server's secret seed
	seed    [32]byte // the table seed: the server seed mixed with the entropy (package fair)
	tableID string
	rounds  uint32 // deals so far
	rec     *record.Recorder
	obs     ruleset.Observer // nil: none
}

func makeGame(eng Engine, restore RestoreEngine, walls NewWall, rules table.Rules, server [32]byte) *game {
	return &game{
		eng: eng, restore: restore, rules: rules, walls: walls, aka: rules.Aka, server: server,
		seed: fair.TableSeed(server, [fair.Seats][]byte{}),
		rec:  record.NewRecorder("", rules, [4]int{}),
	}
}

// Seed takes the table's id and the players' entropy when the table
// starts: the table seed becomes fair.TableSeed of the server seed and the
// entropy, and the commitments bind the id.
func (g *game) Seed(tableID string, entropy [][]byte) {
	var e [fair.Seats][]byte
	copy(e[:], entropy)
	g.tableID = tableID
	g.seed = fair.TableSeed(g.server, e)
	g.rec.SetTable(tableID)
	g.rec.SetSeeds(fair.SeedCommitment(g.server), e)
}

func (g *game) Apply(a table.Action) ([]host.Out[table.Body], error) {
	if a.Type != table.Deal {
		if err := g.precheck(a); err != nil {
			return nil, err
		}
	}
	var start time.Time
	if g.obs != nil && a.Type == table.Discard {
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
			if _, ok := e.Body.(table.RoundEnded); ok {
				g.obs.RoundEnded()
			}
		}
	}
	if a.Type == table.Deal {
		g.rounds++
	}
	g.rec.Step(a, evs)
	outs := make([]host.Out[table.Body], len(evs), len(evs)+1)
	for i, e := range evs {
		to := host.Everyone
		if e.To.Private {
			to = host.Only(int(e.To.Seat))
		}
		_, offer := e.Body.(table.ClaimOffer)
		outs[i] = host.Out[table.Body]{To: to, Body: e.Body, Offer: offer}
	}
	// A remote seat cannot work out its turn's options (tsumo needs the
	// judge and the situation, kuikae and riichi kans need the rules), so
	// the seat to act is told them, as claim offers tell the others.
	if len(evs) > 0 && g.eng.Phase() == table.Turn {
		for s := range table.Seat(table.NumSeats) {
			if legal := g.eng.Legal(s); len(legal) > 0 {
				// The offer stays in the table's log for the whole game: an exact
				// copy of the options, not the engine's roomier slice.
				outs = append(outs, host.Out[table.Body]{To: host.Only(int(s)), Body: table.TurnOffer{Seat: s, Options: slices.Clone(legal)}, Offer: true})
				break
			}
		}
	}
	markWindow(a, outs)
	return outs, nil
}

// markWindow marks, after a discard or a kan, the last of the events that
// open the claim window - the discard or the kan, the indicators it turns,
// the discarder's fishing state and the offers - for the host's claim
// dwell. It marks whether or not the engine made any offer: when nobody
// may claim, the engine resolves the window in the same step, and its
// events (the next draw, the accepted riichi, the end of the round) wait
// behind the mark like those of a window that was answered.
func markWindow(a table.Action, outs []host.Out[table.Body]) {
	switch a.Type {
	case table.Discard, table.Riichi, table.ClosedKan, table.AddedKan:
	default:
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

// opensWindow reports whether an event belongs to the opening of a claim
// window, rather than to its resolution.
func opensWindow(b table.Body) bool {
	switch b := b.(type) {
	case table.Discarded, table.Fishing, table.ClaimOffer, table.DoraRevealed:
		return true
	case table.Called:
		return b.Meld.Type == judge.ClosedKan || b.Meld.Type == judge.AddedKan
	}
	return false
}

// isClaim reports whether an action answers a claim window.
func isClaim(t table.ActionType) bool {
	switch t {
	case table.Chi, table.Pon, table.OpenKan, table.Ron, table.Pass:
		return true
	}
	return false
}

// precheck refuses, with the precise reason, an action of a seat that has
// nothing to do now; the engine checks the rest.
func (g *game) precheck(a table.Action) error {
	if a.Seat >= table.NumSeats {
		return fmt.Errorf("seat %d: %w", a.Seat, ruleset.ErrMalformed)
	}
	if len(g.eng.Legal(a.Seat)) > 0 {
		return nil
	}
	switch ph := g.eng.Phase(); {
	case ph == table.GameOver:
		return host.ErrGameOver
	case isClaim(a.Type) || ph == table.ClaimWindow:
		if ph == table.ClaimWindow && !isClaim(a.Type) {
			return fmt.Errorf("%v during a claim window: %w", a.Type, ruleset.ErrNotYourTurn)
		}
		return fmt.Errorf("%v: %w", a.Type, ruleset.ErrClaimClosed)
	}
	return fmt.Errorf("%v: %w", a.Type, ruleset.ErrNotYourTurn)
}

// classify names the reason of an engine's refusal for the error mapping,
// keeping the engine's error in the chain. Whatever the engine does not
// single out is an illegal action.
func classify(a table.Action, err error) error {
	reason := ruleset.ErrIllegal
	switch {
	case errors.Is(err, table.ErrBadAction):
		reason = ruleset.ErrMalformed
	case errors.Is(err, table.ErrGameOver):
		reason = host.ErrGameOver
	case errors.Is(err, table.ErrNotToAct), errors.Is(err, table.ErrPhase):
		reason = ruleset.ErrNotYourTurn
		if isClaim(a.Type) {
			reason = ruleset.ErrClaimClosed
		}
	}
	var ae *table.ActionError
	if errors.As(err, &ae) && ae.Why != "" {
		// Said in the client's terms: the action as it was asked, and
		// why the engine refused it.
		return &refusal{msg: fmt.Sprintf("%s: %v: %s", asked(a), reason, ae.Why), errs: []error{reason, err}}
	}
	return fmt.Errorf("%v: %w: %w", a.Type, reason, err)
}

// asked writes an action as the seat asked it, without its seat: the type
// and the tiles it names ("chi 34m", "open_kan").
func asked(a table.Action) string {
	return strings.TrimPrefix(a.String(), fmt.Sprintf("seat %d ", a.Seat))
}

// refusal is an engine's refusal with a message of its own; errors.Is
// sees the reason and the engine's error.
type refusal struct {
	msg  string
	errs []error
}

func (e *refusal) Error() string   { return e.msg }
func (e *refusal) Unwrap() []error { return e.errs }

func (g *game) View(seat int) table.View { return g.eng.View(table.Seat(seat)) }

func (g *game) Pending() host.Pending {
	var kind host.WaitKind
	switch g.eng.Phase() {
	case table.BetweenRounds:
		return host.Pending{Kind: host.WaitSystem}
	case table.Turn:
		kind = host.WaitTurn
	case table.ClaimWindow:
		kind = host.WaitClaim
	default:
		return host.Pending{}
	}
	p := host.Pending{Kind: kind}
	for s := range table.Seat(table.NumSeats) {
		if len(g.eng.Legal(s)) > 0 {
			p.Seats = append(p.Seats, int(s))
		}
	}
	return p
}

// Default is what a seat that runs out of time plays: in its turn the tile
// it just drew (tsumogiri), or after a call its last legal discard; in a
// claim window a pass. For the system it deals the next round.
func (g *game) Default(seat int) table.Action {
	if seat == host.System {
		seed := fair.RoundSeed(g.seed, g.rounds)
		w := g.walls(seed, g.aka)
		w.Commitment = fair.Commit(seed, g.tableID, g.rounds)
		return table.Action{Type: table.Deal, Wall: &w}
	}
	s := table.Seat(seat)
	legal := g.eng.Legal(s)
	if g.eng.Phase() == table.ClaimWindow {
		return table.Action{Seat: s, Type: table.Pass}
	}
	v := g.eng.View(s)
	if v.HasDrawn {
		if i := slices.IndexFunc(legal, func(a table.Action) bool { return a.Type == table.Discard && a.Tile == v.Drawn }); i >= 0 {
			return legal[i]
		}
	}
	for i := len(legal) - 1; i >= 0; i-- {
		if legal[i].Type == table.Discard {
			return legal[i]
		}
	}
	if len(legal) > 0 {
		return legal[0]
	}
	// Not pending: Default is only asked for pending seats.
	return table.Action{Seat: s, Type: table.Pass}
}

func (g *game) Over() bool { return g.eng.Phase() == table.GameOver }

// The game's snapshots (host.Snapshotter): between rounds, the engine's
// snapshot and the record so far; the table's seed and id come back
// through Seed, which the host calls before Restore.

// gameSnapshotVersion is the first byte of a game's snapshot.

// Boundary reports whether the game is between rounds (after the first)
// or over, with an engine that snapshots itself.
func (g *game) Boundary() bool {
	if _, ok := g.eng.(snapshotEngine); !ok || g.restore == nil {
		return false
	}
	ph := g.eng.Phase()
	return ph == table.GameOver || ph == table.BetweenRounds && g.rounds > 0
}

// AppendSnapshot appends the game's snapshot: a version byte, the engine's
// snapshot prefixed with its length, and to the end the recorder's state.
func (g *game) AppendSnapshot(dst []byte) ([]byte, error) {
	se, ok := g.eng.(snapshotEngine)
	if !ok || !g.Boundary() {
		return dst, errors.New("game snapshot: not at a round boundary")
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
	var s table.Snapshot
	if err := s.UnmarshalBinary(engRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := g.restore(table.Config{Rules: g.rules}, s)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	rec, err := record.RestoreRecorder(recRaw)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if rec.Rounds() != s.Rounds || rec.Over() != (s.Phase == table.GameOver) {
		return fmt.Errorf("game snapshot: a record of %d rounds (over %t) for an engine after %d (%v)", rec.Rounds(), rec.Over(), s.Rounds, s.Phase)
	}
	g.eng, g.rec, g.rounds = eng, rec, uint32(s.Rounds)
	return nil
}
