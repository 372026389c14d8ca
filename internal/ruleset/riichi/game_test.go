package riichi

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
)

var testAction = table.Action{Type: table.Discard}

// TestClassify checks that the engine's refusals carry the error the
// server maps to their reason (see server's TestToStatus), with the
// engine's error kept in the chain.
func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		a    table.Action
		err  error
		want error
	}{
		{testAction, errors.New("engine says no"), ruleset.ErrIllegal},
		{testAction, fmt.Errorf("x: %w", table.ErrIllegal), ruleset.ErrIllegal},
		{testAction, fmt.Errorf("x: %w", table.ErrBadAction), ruleset.ErrMalformed},
		{testAction, table.ErrNotToAct, ruleset.ErrNotYourTurn},
		{table.Action{Type: table.Pon}, table.ErrPhase, ruleset.ErrClaimClosed},
		{testAction, table.ErrGameOver, host.ErrGameOver},
	} {
		got := classify(tc.a, tc.err)
		if !errors.Is(got, tc.want) || !errors.Is(got, tc.err) {
			t.Errorf("classify(%v, %v) = %v, want it to wrap %v and the engine's error", tc.a.Type, tc.err, got, tc.want)
		}
	}
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
