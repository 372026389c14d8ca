package classical

import (
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Engine is what the adapter needs of a classical engine: *ct.Table has
// these methods.
type Engine = mahjong.Engine[ct.Action, ct.View, ct.Event, ct.Seat, ct.Phase]

// NewEngine makes the engine of a new table.
type NewEngine func(cfg ct.Config) (Engine, error)

// RestoreEngine makes an engine from a snapshot an engine of the same
// config took between hands.
type RestoreEngine func(cfg ct.Config, s ct.Snapshot) (Engine, error)

// NewWall shuffles a hand's wall from its seed.
type NewWall func(seed [32]byte) wall.Wall144

// game adapts an Engine to the host (package ruleset/mahjong): it says
// whom the table waits for and what a timed-out seat plays (the engine's
// Default), deals each hand a wall from the table's seed with its
// commitment, marks the claim windows for the dwell, tells the seat to
// act its options, and records the game.
type game = mahjong.Game[ct.Action, ct.View, ct.Body, ct.Event, ct.Seat, ct.Phase, ct.ActionType, ct.Snapshot, *rcl.Recorder]

// spec is what sets the classical adapter apart.
var spec = &mahjong.Spec[ct.Action, ct.View, ct.Body, ct.Event, ct.Seat, ct.Phase, ct.ActionType, ct.Snapshot, *rcl.Recorder]{
	Round: "hand",
	Seats: ct.NumSeats,
	Phases: mahjong.Phases[ct.Phase]{
		Turn: ct.Turn, ClaimWindow: ct.ClaimWindow, Between: ct.BetweenHands, Over: ct.GameOver,
	},
	Actions: mahjong.Actions[ct.ActionType]{
		Deal: ct.Deal, Discard: ct.Discard,
		Claims: []ct.ActionType{ct.Chow, ct.Pung, ct.Kong, ct.Pass},
		// An added kong may be robbed.
		Openers: []ct.ActionType{ct.Discard, ct.AddedKong},
	},
	Errors: mahjong.Errors{BadAction: ct.ErrBadAction, Over: ct.ErrGameOver, NotToAct: ct.ErrNotToAct, Phase: ct.ErrPhase},

	Action: func(a ct.Action) (ct.Seat, ct.ActionType) { return a.Seat, a.Type },
	Pass:   func(s ct.Seat) ct.Action { return ct.Action{Seat: s, Type: ct.Pass} },
	Event:  func(e ct.Event) (ct.Body, bool, ct.Seat) { return e.Body, e.To.Private, e.To.Seat },
	Offer:  func(b ct.Body) bool { _, ok := b.(ct.ClaimOffer); return ok },
	OpensWindow: func(b ct.Body) bool {
		switch b.(type) {
		case ct.Discarded, ct.Called, ct.ClaimOffer:
			return true
		}
		return false
	},
	EndsRound: func(b ct.Body) bool { _, ok := b.(ct.HandEnded); return ok },
	// Mah Jong and fishing need the judge: the seat to act is told its
	// options.
	TurnOffer: func(s ct.Seat, options []ct.Action) ct.Body { return ct.TurnOffer{Seat: s, Options: options} },

	MarshalSnapshot:   (*ct.Snapshot).MarshalBinary,
	UnmarshalSnapshot: (*ct.Snapshot).UnmarshalBinary,
	SnapshotPoint:     func(s *ct.Snapshot) (int, ct.Phase) { return s.Hands, s.Phase },
	RestoreRecorder:   rcl.RestoreRecorder,
	RecordedRounds:    (*rcl.Recorder).Rounds,
}

func makeGame(eng Engine, restore RestoreEngine, walls NewWall, rules ct.Rules, server [32]byte, obs ruleset.Observer) *game {
	t := mahjong.Table[ct.Action, ct.View, ct.Event, ct.Seat, ct.Phase, ct.Snapshot, *rcl.Recorder]{
		Engine: eng, Recorder: rcl.NewRecorder("", rules), Server: server, Observer: obs,
		Deal: func(seed, commitment [32]byte) ct.Action {
			w := walls(seed)
			w.Commitment = commitment
			return ct.Action{Type: ct.Deal, Wall: &w}
		},
	}
	if restore != nil {
		t.Restore = func(s ct.Snapshot) (Engine, error) { return restore(ct.Config{Rules: rules}, s) }
	}
	return mahjong.New(spec, t)
}

// classify names the reason of an engine's refusal for the error mapping.
func classify(a ct.Action, err error) error { return spec.Classify(a, err) }
