package sichuan

import (
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// Engine is what the adapter needs of a Sichuan engine: *sc.Table has
// these methods.
type Engine = mahjong.Engine[sc.Action, sc.View, sc.Event, sc.Seat, sc.Phase]

// NewEngine makes the engine of a new table.
type NewEngine func(cfg sc.Config) (Engine, error)

// RestoreEngine makes an engine from a snapshot an engine of the same
// config took between hands.
type RestoreEngine func(cfg sc.Config, s sc.Snapshot) (Engine, error)

// NewWall shuffles a hand's wall (and draws its exchange direction) from
// its seed.
type NewWall func(seed [32]byte) sc.Wall

// game adapts an Engine to the host (package ruleset/mahjong): it says
// whom the table waits for and what a timed-out seat plays (the engine's
// Default: the exchange and void choices included), deals each hand a
// wall from the table's seed with its commitment, marks the claim windows
// for the dwell and the announcements of the choices every seat makes at
// once, tells the seat to act its options, and records the match.
type game = mahjong.Game[sc.Action, sc.View, sc.Body, sc.Event, sc.Seat, sc.Phase, sc.ActionType, sc.Snapshot, *rsc.Recorder]

// spec is what sets Sichuan's adapter apart.
var spec = &mahjong.Spec[sc.Action, sc.View, sc.Body, sc.Event, sc.Seat, sc.Phase, sc.ActionType, sc.Snapshot, *rsc.Recorder]{
	Round: "hand",
	Seats: sc.NumSeats,
	Phases: mahjong.Phases[sc.Phase]{
		Turn: sc.Turn, ClaimWindow: sc.ClaimWindow, Between: sc.BetweenHands, Over: sc.MatchOver,
		Choosing: []sc.Phase{sc.Exchanging, sc.ChoosingVoid},
	},
	Actions: mahjong.Actions[sc.ActionType]{
		Deal: sc.Deal, Discard: sc.Discard,
		Claims: []sc.ActionType{sc.Pon, sc.OpenKan, sc.Ron, sc.Pass},
		// An added kan may be robbed; a closed kan may not.
		Openers: []sc.ActionType{sc.Discard, sc.AddedKan},
	},
	Errors: mahjong.Errors{BadAction: sc.ErrBadAction, Over: sc.ErrMatchOver, NotToAct: sc.ErrNotToAct, Phase: sc.ErrPhase},

	Action: func(a sc.Action) (sc.Seat, sc.ActionType) { return a.Seat, a.Type },
	Pass:   func(s sc.Seat) sc.Action { return sc.Action{Seat: s, Type: sc.Pass} },
	Event:  func(e sc.Event) (sc.Body, bool, sc.Seat) { return e.Body, e.To.Private, e.To.Seat },
	Offer:  func(b sc.Body) bool { _, ok := b.(sc.ClaimOffer); return ok },
	OpensWindow: func(b sc.Body) bool {
		switch b := b.(type) {
		case sc.Discarded, sc.ClaimOffer:
			return true
		case sc.Called:
			return b.Meld.Type == sc.MeldAddedKan
		}
		return false
	},
	EndsRound: func(b sc.Body) bool { _, ok := b.(sc.HandEnded); return ok },
	// A seat's choice in the exchange or the void choice, which every seat
	// makes at once, changes nothing another seat may choose; the events
	// that end those phases do.
	Simultaneous: func(b sc.Body) bool {
		switch b.(type) {
		case sc.ExchangeChosen, sc.VoidChosen:
			return true
		}
		return false
	},
	TurnOffer: func(s sc.Seat, options []sc.Action) sc.Body { return sc.TurnOffer{Seat: s, Options: options} },

	MarshalSnapshot:   (*sc.Snapshot).MarshalBinary,
	UnmarshalSnapshot: (*sc.Snapshot).UnmarshalBinary,
	SnapshotPoint:     func(s *sc.Snapshot) (int, sc.Phase) { return s.Hands, s.Phase },
	RestoreRecorder:   rsc.RestoreRecorder,
	RecordedRounds:    (*rsc.Recorder).Rounds,
}

func makeGame(eng Engine, restore RestoreEngine, walls NewWall, rules sc.Rules, server [32]byte, obs ruleset.Observer) *game {
	t := mahjong.Table[sc.Action, sc.View, sc.Event, sc.Seat, sc.Phase, sc.Snapshot, *rsc.Recorder]{
		Engine: eng, Recorder: rsc.NewRecorder("", rules), Server: server, Observer: obs,
		Deal: func(seed, commitment [32]byte) sc.Action {
			w := walls(seed)
			w.Commitment = commitment
			return sc.Action{Type: sc.Deal, Wall: &w}
		},
	}
	if restore != nil {
		t.Restore = func(s sc.Snapshot) (Engine, error) { return restore(sc.Config{Rules: rules}, s) }
	}
	return mahjong.New(spec, t)
}

// classify names the reason of an engine's refusal for the error mapping.
func classify(a sc.Action, err error) error { return spec.Classify(a, err) }
