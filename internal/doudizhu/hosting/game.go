// Package hosting is Dou Dizhu's side of the authority's hosting: the
// engine adapter that package host runs (whose turn it is, what a silent
// seat plays, every deal's deck from the table seed with its commitment,
// the offer to the seat to act, snapshots at deal boundaries, the
// record), the action and event codec of the store and snapshots, and the
// bot of empty and abandoned seats. It is to Dou Dizhu what
// internal/ruleset/riichi is to riichi, on a host of Dou Dizhu's own types.
package hosting

import (
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/bot"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/record"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/pack"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// View is what the host hands a seat: the engine's view, and what the seat
// may do when it is to act.
type View struct {
	table.View
	Offer    table.Offer
	HasOffer bool
}

// Host is a host of Dou Dizhu's types.
type Host = host.Host[table.Action, View, table.Body]

// Game is the engine adapter of one table.
type Game struct {
	eng     *table.Table
	rules   table.Rules
	server  [32]byte // the server's secret seed
	seed    [32]byte // the table seed (package fair)
	tableID string
	rec     *record.Recorder
}

// NewGame makes a table's game from its rules and server seed.
func NewGame(rules table.Rules, server [32]byte) (*Game, error) {
	eng, err := table.New(table.Config{Rules: rules})
	if err != nil {
		return nil, err
	}
	return &Game{eng: eng, rules: rules, server: server, seed: fair.TableSeed(server, [fair.Seats][]byte{}),
		rec: record.NewRecorder(rules, server)}, nil
}

// Seed takes the table's id and the players' entropy when the table
// starts (host.Seeder): the table seed is fair.TableSeed of the server
// seed and the three seats' entropy (the fourth place empty), exactly as
// for the mahjong walls.
func (g *Game) Seed(tableID string, entropy [][]byte) {
	var e [fair.Seats][]byte
	copy(e[:], entropy)
	g.tableID = tableID
	g.seed = fair.TableSeed(g.server, e)
	g.rec.SetTable(tableID, entropy)
}

// Apply plays an action; after it the seat to act, if any, is told its
// offer, privately.
func (g *Game) Apply(a table.Action) ([]host.Out[table.Body], error) {
	if a.Type != table.Deal && a.Seat >= table.NumSeats {
		return nil, fmt.Errorf("seat %d: %w", a.Seat, ruleset.ErrMalformed)
	}
	evs, err := g.eng.Step(a)
	if err != nil {
		return nil, classify(a, err)
	}
	g.rec.Step(a, evs)
	outs := make([]host.Out[table.Body], len(evs), len(evs)+1)
	for i, e := range evs {
		to := host.Everyone
		if e.To.Private {
			to = host.Only(int(e.To.Seat))
		}
		outs[i] = host.Out[table.Body]{To: to, Body: e.Body}
	}
	if o, ok := g.eng.Offer(); ok {
		outs = append(outs, host.Out[table.Body]{To: host.Only(int(o.Seat)), Body: o})
	}
	return outs, nil
}

// classify names the reason of an engine's refusal for the server's error
// mapping, keeping the engine's error in the chain.
func classify(a table.Action, err error) error {
	reason := ruleset.ErrIllegal
	switch {
	case errors.Is(err, table.ErrBadAction):
		reason = ruleset.ErrMalformed
	case errors.Is(err, table.ErrMatchOver):
		reason = host.ErrGameOver
	case errors.Is(err, table.ErrNotToAct), errors.Is(err, table.ErrPhase):
		reason = ruleset.ErrNotYourTurn
	}
	return fmt.Errorf("%v: %w: %w", a.Type, reason, err)
}

// View is what seat may see now.
func (g *Game) View(seat int) View {
	v := View{View: g.eng.View(table.Seat(seat))}
	if o, ok := g.eng.Offer(); ok && int(o.Seat) == seat {
		v.Offer, v.HasOffer = o, true
	}
	return v
}

// Pending is the seat to act, or the next deal.
func (g *Game) Pending() host.Pending {
	switch g.eng.Phase() {
	case table.BetweenDeals:
		return host.Pending{Kind: host.WaitSystem}
	case table.Bidding, table.Playing:
		return host.Pending{Kind: host.WaitTurn, Seats: []int{int(g.eng.ToAct())}}
	}
	return host.Pending{}
}

// Default is what a silent seat plays (the engine's Default: pass, or its
// smallest lead); for the system, the next deal: its deck shuffled from
// fair.RoundSeed(table seed, deal index) and committed to with
// fair.Commit(seed, table id, deal index), thrown-in deals counted.
func (g *Game) Default(seat int) table.Action {
	if seat == host.System {
		n := uint32(g.eng.Index())
		seed := fair.RoundSeed(g.seed, n)
		d := deck.New(seed)
		return table.Action{Type: table.Deal, Deck: &d, Commitment: fair.Commit(seed, g.tableID, n)}
	}
	a, _ := g.eng.Default()
	return a
}

// Over reports whether the match is over.
func (g *Game) Over() bool { return g.eng.Phase() == table.MatchOver }

// Record returns the record so far (taken in a call into the table).
func (g *Game) Record(names [3]string) (record.Record, error) {
	rec := g.rec.Record(names)
	return rec, g.rec.Err()
}

// The game's snapshots (host.Snapshotter): between deals, the engine's
// snapshot and the record so far.

const snapshotVersion = 1

const maxSnapshotPart = 1 << 24

// Boundary reports whether the game is between deals (after the first)
// or over.
func (g *Game) Boundary() bool {
	ph := g.eng.Phase()
	return ph == table.MatchOver || ph == table.BetweenDeals && g.eng.Index() > 0
}

// AppendSnapshot appends a version byte, the engine's snapshot with its
// length, and the recorder's state.
func (g *Game) AppendSnapshot(dst []byte) ([]byte, error) {
	if !g.Boundary() {
		return dst, errors.New("game snapshot: not between deals")
	}
	s, err := g.eng.Snapshot()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	eng, err := s.MarshalBinary()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	rec, err := g.rec.MarshalBinary()
	if err != nil {
		return dst, fmt.Errorf("game snapshot: %w", err)
	}
	dst = append(dst, snapshotVersion)
	dst = pack.AppendBytes(dst, eng)
	return append(dst, rec...), nil
}

// Restore sets a new, seeded game to a snapshot AppendSnapshot wrote.
func (g *Game) Restore(state []byte) error {
	r := pack.NewReader(state)
	if v := r.Byte("version"); r.Err() == nil && v != snapshotVersion {
		return fmt.Errorf("game snapshot: version %d", v)
	}
	engRaw := r.Bytes("engine", maxSnapshotPart)
	recRaw := r.Fixed("record", r.Len())
	if err := r.Done(); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	var s table.Snapshot
	if err := s.UnmarshalBinary(engRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if s.Rules != g.rules {
		return fmt.Errorf("game snapshot: rules %+v, the table's %+v", s.Rules, g.rules)
	}
	eng, err := table.Restore(s)
	if err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if err := g.rec.UnmarshalBinary(recRaw); err != nil {
		return fmt.Errorf("game snapshot: %w", err)
	}
	if g.rec.Deals() != s.Index || g.rec.Over() != (s.Phase == table.MatchOver) {
		return fmt.Errorf("game snapshot: a record of %d deals for an engine after %d", g.rec.Deals(), s.Index)
	}
	g.eng = eng
	return nil
}

// Codec encodes actions and event bodies for the store and snapshots
// (store.Codec, host.Codec), as package table writes them.
type Codec struct{}

// AppendAction appends the encoding of a. Every action the host logs is
// one the engine accepted, which table.AppendAction encodes.
func (Codec) AppendAction(dst []byte, a table.Action) []byte {
	out, err := table.AppendAction(dst, a)
	if err != nil {
		// Not reached for accepted actions; an empty entry fails to
		// decode, so the fault shows at recovery rather than silently.
		return dst
	}
	return out
}

// DecodeAction decodes what AppendAction wrote.
func (Codec) DecodeAction(b []byte) (table.Action, error) { return table.DecodeAction(b) }

// AppendBody appends the encoding of b.
func (Codec) AppendBody(dst []byte, b table.Body) ([]byte, error) { return table.AppendBody(dst, b) }

// DecodeBody decodes what AppendBody wrote.
func (Codec) DecodeBody(b []byte) (table.Body, error) { return table.DecodeBody(b) }

// Bot plays a seat with package bot.
type Bot struct{ B bot.Bot }

// Act asks the bot for the seat's move.
func (b *Bot) Act(seat int, v View) (table.Action, error) {
	a, err := b.B.Act(&v.View)
	if err != nil {
		return table.Action{}, fmt.Errorf("bot: seat %d: %w", seat, err)
	}
	return a, nil
}

// NewBot makes the bot of a seat (host.Config.Bot).
func NewBot() host.Bot[table.Action, View] { return &Bot{} }
