package riichi

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
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

// game adapts an Engine to the host (package ruleset/mahjong): it says
// whom the table waits for, what a timed-out seat plays (tsumogiri, pass),
// deals each round a wall from the table's seed with its commitment, and
// records the game.
type game = mahjong.Game[table.Action, table.View, table.Body, table.Event, table.Seat, table.Phase, table.ActionType, table.Snapshot, *record.Recorder]

// adapted is riichi's engine as the adapter needs it: the engine knows
// neither whom it waits for nor what a timed-out seat plays, so both are
// worked out here from its legal actions.
type adapted = mahjong.Engine[table.Action, table.View, table.Event, table.Seat, table.Phase]

// turns adds Waiting and Default to an Engine.
type turns struct {
	Engine
	waits   waiter   // the engine's own Waiting, if it has one
	appends appender // the engine's own AppendLegal, if it has one
	into    stepper  // the engine's own StepInto, if it has one
}

// stepper is an engine that appends a step's events to the caller's
// buffer, as *table.Table does (mahjong.IntoStepper).
type stepper = mahjong.IntoStepper[table.Action, table.Event]

// StepInto appends the events of action a to dst: the engine's own, or
// its Step's.
func (e *turns) StepInto(dst []table.Event, a table.Action) ([]table.Event, error) {
	if e.into != nil {
		return e.into.StepInto(dst, a)
	}
	evs, err := e.Step(a)
	if err != nil {
		return dst, err
	}
	return append(dst, evs...), nil
}

// waiter is an engine that knows whom it waits for, as *table.Table does
// (exactly the seats with legal actions, without making the list).
type waiter interface {
	Waiting(s table.Seat) bool
}

// appender is an engine that appends a seat's options to a list, as
// *table.Table does.
type appender interface {
	AppendLegal(dst []table.Action, s table.Seat) []table.Action
}

// AppendLegal appends seat s's options to dst: the engine's own, or its
// Legal's.
func (e *turns) AppendLegal(dst []table.Action, s table.Seat) []table.Action {
	if e.appends != nil {
		return e.appends.AppendLegal(dst, s)
	}
	return append(dst, e.Legal(s)...)
}

// snapshotTurns are the turns of an engine that snapshots itself.
type snapshotTurns struct {
	turns
	snap snapshotEngine
}

func (e *snapshotTurns) Snapshot() (table.Snapshot, error) { return e.snap.Snapshot() }

// adapt gives an engine to the adapter.
func adapt(eng Engine) adapted {
	t := turns{Engine: eng}
	t.waits, _ = eng.(waiter)
	t.appends, _ = eng.(appender)
	t.into, _ = eng.(stepper)
	if se, ok := eng.(snapshotEngine); ok {
		return &snapshotTurns{t, se}
	}
	return &t
}

// Waiting: the table waits for a seat with something to do.
func (e *turns) Waiting(s table.Seat) bool {
	if e.waits != nil {
		return e.waits.Waiting(s)
	}
	return len(e.Legal(s)) > 0
}

// Default is what a seat that runs out of time plays: in its turn the
// tile it just drew (tsumogiri), or after a call its last legal discard;
// in a claim window a pass.
func (e *turns) Default(s table.Seat) (table.Action, bool) {
	if e.Phase() == table.ClaimWindow {
		return table.Action{Seat: s, Type: table.Pass}, true
	}
	legal := e.Legal(s)
	v := e.View(s)
	if v.HasDrawn {
		if i := slices.IndexFunc(legal, func(a table.Action) bool { return a.Type == table.Discard && a.Tile == v.Drawn }); i >= 0 {
			return legal[i], true
		}
	}
	for i := len(legal) - 1; i >= 0; i-- {
		if legal[i].Type == table.Discard {
			return legal[i], true
		}
	}
	if len(legal) > 0 {
		return legal[0], true
	}
	return table.Action{}, false
}

// spec is what sets riichi's adapter apart.
var spec = &mahjong.Spec[table.Action, table.View, table.Body, table.Event, table.Seat, table.Phase, table.ActionType, table.Snapshot, *record.Recorder]{
	Round: "round",
	Seats: table.NumSeats,
	Phases: mahjong.Phases[table.Phase]{
		Turn: table.Turn, ClaimWindow: table.ClaimWindow, Between: table.BetweenRounds, Over: table.GameOver,
	},
	Actions: mahjong.Actions[table.ActionType]{
		Deal: table.Deal, Discard: table.Discard,
		Claims: []table.ActionType{table.Chi, table.Pon, table.OpenKan, table.Ron, table.Pass},
		// A closed kan may be robbed too (kokushi), and a riichi discards.
		Openers: []table.ActionType{table.Discard, table.Riichi, table.ClosedKan, table.AddedKan},
	},
	Errors: mahjong.Errors{BadAction: table.ErrBadAction, Over: table.ErrGameOver, NotToAct: table.ErrNotToAct, Phase: table.ErrPhase},

	Action: func(a table.Action) (table.Seat, table.ActionType) { return a.Seat, a.Type },
	Pass:   func(s table.Seat) table.Action { return table.Action{Seat: s, Type: table.Pass} },
	Event: func(e table.Event) (table.Body, bool, table.Seat) {
		return e.Body, e.To.Private, e.To.Seat
	},
	Offer: func(b table.Body) bool { _, ok := b.(table.ClaimOffer); return ok },
	OpensWindow: func(b table.Body) bool {
		switch b := b.(type) {
		case table.Discarded, table.Fishing, table.ClaimOffer, table.DoraRevealed:
			return true
		case table.Called:
			return b.Meld.Type == judge.ClosedKan || b.Meld.Type == judge.AddedKan
		}
		return false
	},
	EndsRound: func(b table.Body) bool { _, ok := b.(table.RoundEnded); return ok },
	TurnOffer: func(s table.Seat, options []table.Action) table.Body {
		return table.TurnOffer{Seat: s, Options: options}
	},
	Refuse: refuse,

	MarshalSnapshot:   (*table.Snapshot).MarshalBinary,
	UnmarshalSnapshot: (*table.Snapshot).UnmarshalBinary,
	SnapshotPoint:     func(s *table.Snapshot) (int, table.Phase) { return s.Rounds, s.Phase },
	RestoreRecorder:   record.RestoreRecorder,
	RecordedRounds:    (*record.Recorder).Rounds,
}

func makeGame(eng Engine, restore RestoreEngine, walls NewWall, rules table.Rules, server [32]byte, obs ruleset.Observer) *game {
	t := mahjong.Table[table.Action, table.View, table.Event, table.Seat, table.Phase, table.Snapshot, *record.Recorder]{
		Engine:   adapt(eng),
		Recorder: record.NewRecorder("", rules, [4]int{}),
		Server:   server,
		Observer: obs,
		Deal: func(seed, commitment [32]byte) table.Action {
			w := walls(seed, rules.Aka)
			w.Commitment = commitment
			return table.Action{Type: table.Deal, Wall: &w}
		},
	}
	if restore != nil {
		t.Restore = func(s table.Snapshot) (adapted, error) {
			eng, err := restore(table.Config{Rules: rules}, s)
			if err != nil {
				return nil, err
			}
			return adapt(eng), nil
		}
	}
	return mahjong.New(spec, t)
}

// classify names the reason of an engine's refusal for the error mapping,
// worded by refuse.
func classify(a table.Action, err error) error { return spec.Classify(a, err) }

// refuse words an engine's refusal in the client's terms where the
// engine says why: the action as it was asked, and why the engine refused
// it.
func refuse(a table.Action, reason, err error) error {
	var ae *table.ActionError
	if errors.As(err, &ae) && ae.Why != "" {
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

var _ host.Snapshotter = (*game)(nil)
