package mcr

import (
	"fmt"
	"slices"

	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// engine is the MCR engine as the adapter sees it: *tbl.Table.
type engine = mahjong.Engine[tbl.Action, tbl.View, tbl.Event, tbl.Seat, tbl.Phase]

// game adapts the engine to the host (package ruleset/mahjong): it says
// whom the table waits for, what a timed-out seat plays, deals each hand a
// 144-tile wall from the table's seed with its commitment, tells the seat
// to act its options, marks claim windows for the dwell, and records the
// game.
type game = mahjong.Game[tbl.Action, tbl.View, tbl.Body, tbl.Event, tbl.Seat, tbl.Phase, tbl.ActionType, tbl.Snapshot, *rmcr.Recorder]

// spec is what sets MCR's adapter apart.
var spec = &mahjong.Spec[tbl.Action, tbl.View, tbl.Body, tbl.Event, tbl.Seat, tbl.Phase, tbl.ActionType, tbl.Snapshot, *rmcr.Recorder]{
	Round: "hand",
	Seats: tbl.NumSeats,
	Phases: mahjong.Phases[tbl.Phase]{
		Turn: tbl.Turn, ClaimWindow: tbl.ClaimWindow, Between: tbl.BetweenHands, Over: tbl.GameOver,
	},
	Actions: mahjong.Actions[tbl.ActionType]{
		Deal: tbl.Deal, Discard: tbl.Discard,
		Claims: claims,
		// An added kong may be robbed; a concealed one may not.
		Openers: []tbl.ActionType{tbl.Discard, tbl.AddedKan},
	},
	Errors: mahjong.Errors{BadAction: tbl.ErrBadAction, Over: tbl.ErrGameOver, NotToAct: tbl.ErrNotToAct, Phase: tbl.ErrPhase},

	Action: func(a tbl.Action) (tbl.Seat, tbl.ActionType) { return a.Seat, a.Type },
	Pass:   func(s tbl.Seat) tbl.Action { return tbl.Action{Seat: s, Type: tbl.Pass} },
	Event:  func(e tbl.Event) (tbl.Body, bool, tbl.Seat) { return e.Body, e.To.Private, e.To.Seat },
	Offer:  func(b tbl.Body) bool { _, ok := b.(tbl.ClaimOffer); return ok },
	OpensWindow: func(b tbl.Body) bool {
		switch b := b.(type) {
		case tbl.Discarded, tbl.ClaimOffer:
			return true
		case tbl.Called:
			return b.Meld.Type == tbl.MeldAddedKan
		}
		return false
	},
	EndsRound: func(b tbl.Body) bool { _, ok := b.(tbl.HandEnded); return ok },
	// Whether a hand reaches the 8-fan minimum depends on flags only the
	// table knows (last tile of its kind, replacement, last tile), so the
	// seat to act is told its options.
	TurnOffer:    func(s tbl.Seat, options []tbl.Action) tbl.Body { return tbl.TurnOffer{Seat: s, Options: options} },
	CheckWaiting: checkClaimTile,

	MarshalSnapshot:   (*tbl.Snapshot).MarshalBinary,
	UnmarshalSnapshot: (*tbl.Snapshot).UnmarshalBinary,
	SnapshotPoint:     func(s *tbl.Snapshot) (int, tbl.Phase) { return s.Hands, s.Phase },
	RestoreRecorder:   rmcr.RestoreRecorder,
	RecordedRounds:    (*rmcr.Recorder).Hands,
}

// claims are the actions that answer a claim window.
var claims = []tbl.ActionType{tbl.Chi, tbl.Pon, tbl.OpenKan, tbl.Ron, tbl.Pass}

// checkClaimTile refuses a claim that names another tile than the one
// claimed (a claim may name it, or not).
func checkClaimTile(eng engine, a tbl.Action) error {
	if a.Tile == 0 || !slices.Contains(claims, a.Type) {
		return nil
	}
	if x, ok := eng.(interface{ ClaimTile() (tile.Tile, bool) }).ClaimTile(); !ok || x != a.Tile {
		return fmt.Errorf("%v names %v, not the tile claimed: %w", a.Type, a.Tile, ruleset.ErrIllegal)
	}
	return nil
}

func newGame(eng *tbl.Table, rules tbl.Rules, server [32]byte, obs ruleset.Observer) *game {
	return mahjong.New(spec, mahjong.Table[tbl.Action, tbl.View, tbl.Event, tbl.Seat, tbl.Phase, tbl.Snapshot, *rmcr.Recorder]{
		Engine: eng, Recorder: rmcr.NewRecorder(rules), Server: server, Observer: obs,
		Deal: func(seed, commitment [32]byte) tbl.Action {
			w := wall.New144(seed)
			w.Commitment = commitment
			return tbl.Action{Type: tbl.Deal, Wall: &w}
		},
		Restore: func(s tbl.Snapshot) (engine, error) { return tbl.Restore(tbl.Config{Rules: rules}, s) },
	})
}
