package riichi

import (
	"errors"
	"testing"

	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	"github.com/mahjong-authority/authority/internal/table"
)

var testAction = table.Action{Type: table.Discard}

// TestClassify checks that the engine's refusals carry the error the
// server maps to their reason, with the engine's error kept in the chain.
func TestClassify(t *testing.T) {
	mahjongtest.CheckClassify(t, classify, table.Action{Type: table.Discard}, table.Action{Type: table.Pon},
		mahjong.Errors{BadAction: table.ErrBadAction, Over: table.ErrGameOver, NotToAct: table.ErrNotToAct, Phase: table.ErrPhase}, table.ErrIllegal)
}

// TestClassifyNamesTheActionAsked: a refusal says the action as the seat
// asked it and why, not the zero values of options it did not set.
func TestClassifyNamesTheActionAsked(t *testing.T) {
	a := table.Action{Seat: 2, Type: table.OpenKan}
	err := classify(a, &table.ActionError{Action: a, Err: table.ErrIllegal, Why: "not offered to this seat"})
	if want := "open_kan: action not allowed now: not offered to this seat"; err.Error() != want {
		t.Errorf("classify(open kan) = %q, want %q", err.Error(), want)
	}
	if !errors.Is(err, ruleset.ErrIllegal) || !errors.Is(err, table.ErrIllegal) {
		t.Errorf("classify(open kan) = %v: does not wrap the reason and the engine's error", err)
	}
}
