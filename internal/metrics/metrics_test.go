package metrics

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
)

// TestActedClassifies checks the labels of actions_total: an action's
// type, who took it and what became of it, seen through wrapping.
func TestActedClassifies(t *testing.T) {
	m := New(nil)
	discard := table.Action{Type: table.Discard}
	for _, tc := range []struct {
		by     host.Actor
		a      table.Action
		err    error
		result string
	}{
		{host.ByPlayer, discard, nil, "ok"},
		{host.ByPlayer, discard, fmt.Errorf("seat 1: %w", host.ErrRateLimited), "rate_limited"},
		{host.ByPlayer, discard, &host.StaleSeqError{Last: 1, Newest: 2}, "stale"},
		{host.ByPlayer, discard, fmt.Errorf("x: %w", ruleset.ErrNotYourTurn), "refused"},
		{host.ByPlayer, discard, fmt.Errorf("x: %w", ruleset.ErrBadTile), "malformed"},
		{host.ByBot, table.Action{Type: table.Pass}, fmt.Errorf("%w: disk full", host.ErrUnavailable), "unavailable"},
		{host.BySystem, table.Action{Type: table.Deal}, nil, "ok"},
	} {
		before := testutil.ToFloat64(m.actions.WithLabelValues(tc.a.Type.String(), tc.by.String(), tc.result))
		m.Acted(tc.by, tc.a.Type.String(), tc.err)
		after := testutil.ToFloat64(m.actions.WithLabelValues(tc.a.Type.String(), tc.by.String(), tc.result))
		assert.Equal(t, before+1, after, "%v by %v, %v: want result %s", tc.a.Type, tc.by, tc.err, tc.result)
	}
	assert.Equal(t, 1.0, testutil.ToFloat64(m.rateLimited[0]), "the seat's rate-limit refusal")
	m.Acted(host.Actor(200), table.ActionType(200).String(), nil) // out of range: counted as invalid, no panic
	assert.Equal(t, 1.0, testutil.ToFloat64(m.actions.WithLabelValues("invalid", "invalid", "ok")))
}

// TestHotPathAllocatesNothing checks the hooks a table calls per action
// and per event: once a series is resolved, counting allocates nothing.
func TestHotPathAllocatesNothing(t *testing.T) {
	m := New(nil)
	discard := table.Action{Type: table.Discard}
	refused := fmt.Errorf("x: %w", ruleset.ErrNotYourTurn)
	hooks := func() {
		m.Acted(host.ByPlayer, discard.Type.String(), nil)
		m.Acted(host.ByPlayer, discard.Type.String(), refused)
		m.EventSent(time.Millisecond)
		m.Judged(time.Microsecond)
		m.ClaimWindow()
		m.Dwell(time.Second)
		m.StreamOpened(false)
		m.StreamClosed(false)
		m.Store().Appended(time.Millisecond)
		m.Store().Committed(time.Millisecond, 3)
	}
	hooks() // resolves the series
	if n := testing.AllocsPerRun(100, hooks); n != 0 {
		t.Fatalf("the hot-path hooks allocate %v times a run, want 0", n)
	}
}

// BenchmarkActed is the cost of counting one action.
func BenchmarkActed(b *testing.B) {
	m := New(nil)
	a := table.Discard.String()
	err := errors.New("refused")
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			m.Acted(host.ByPlayer, a, nil)
		} else {
			m.Acted(host.ByPlayer, a, err)
		}
	}
}
