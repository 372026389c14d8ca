package host_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// TestLateTimerCalls: a table reuses its timers, and a call of an earlier
// arm that Reset or Stop did not stop may reach it late. Such a call ends
// no wait before its deadline: the wait armed then ends at its own time,
// once.
func TestLateTimerCalls(t *testing.T) {
	s := defaultSettings
	s.TurnTime, s.ClaimTime = 10*time.Second, 3*time.Second
	withDwell := s
	withDwell.ClaimDwell = 2 * time.Second
	type state struct{ total, turn, claimer int }
	for _, tc := range []struct {
		name  string
		set   host.Settings
		steps func(f *fixture, late func(dwell bool), want func(state))
	}{
		{"after a re-arm for the next wait", s, func(f *fixture, late func(bool), want func(state)) {
			f.clk.Advance(4 * time.Second)
			f.play(0, 2) // seat 2's claim window, 3s
			late(false)  // the call of seat 0's turn
			want(state{2, 1, 2})
			f.clk.Advance(3*time.Second - time.Nanosecond)
			want(state{2, 1, 2})
			f.clk.Advance(time.Nanosecond)
			want(state{2, 1, -1}) // seat 2 timed out
		}},
		{"a second call of a wait that ended", s, func(f *fixture, late func(bool), want func(state)) {
			f.clk.Advance(10 * time.Second) // seat 0 times out: seat 2's window
			want(state{1, 1, 2})
			late(false)
			want(state{1, 1, 2})
			f.clk.Advance(3 * time.Second)
			want(state{1, 1, -1})
		}},
		{"after a stop, then after the next arm", withDwell, func(f *fixture, late func(bool), want func(state)) {
			f.play(0, 2) // a dwell of 2s; seat 2's window, 3s
			f.clk.Advance(time.Second)
			if _, err := f.act(2, "pass", f.seq(2), toyAction{Seat: 2, Kind: "pass"}); err != nil {
				t.Fatalf("pass: %v", err)
			}
			late(false) // the window's timer was stopped: the dwell ends the hold
			want(state{2, 1, -1})
			f.clk.Advance(time.Second) // the dwell ends: seat 1's turn, 10s
			late(false)
			want(state{2, 1, -1})
			f.clk.Advance(10*time.Second - time.Nanosecond)
			want(state{2, 1, -1})
			f.clk.Advance(time.Nanosecond)
			want(state{3, 2, 3}) // seat 1 timed out
		}},
		{"the dwell's, before its end", withDwell, func(f *fixture, late func(bool), want func(state)) {
			f.play(0, 2)
			f.clk.Advance(time.Second)
			if _, err := f.act(2, "pass", f.seq(2), toyAction{Seat: 2, Kind: "pass"}); err != nil {
				t.Fatalf("pass: %v", err)
			}
			late(true)
			if _, err := f.act(1, "early", f.seq(1), toyAction{Seat: 1, Kind: "play", N: 1}); !errors.Is(err, host.ErrWindowOpen) {
				t.Fatalf("play during the dwell after a late call = %v, want ErrWindowOpen", err)
			}
			f.clk.Advance(time.Second)
			late(true) // a second call of the dwell that ended
			want(state{2, 1, -1})
			f.play(1, 1)
			want(state{3, 2, 3})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, tc.set, 1, host.Config[toyAction, toyView, string]{})
			f.join(4)
			late := func(dwell bool) {
				t.Helper()
				if err := f.h.LateTimerCall(f.id, dwell); err != nil {
					t.Fatalf("late call: %v", err)
				}
			}
			tc.steps(f, late, func(w state) {
				t.Helper()
				g := f.toy()
				if got := (state{g.total, g.turn, g.claimer}); got != w {
					t.Fatalf("total, turn, claimer = %v, want %v", fmt.Sprint(got), fmt.Sprint(w))
				}
			})
		})
	}
}

// play has seat play n, and fails the test if it cannot.
func (f *fixture) play(seat, n int) {
	f.t.Helper()
	if _, err := f.act(seat, fmt.Sprint("play", f.seq(seat)), f.seq(seat), toyAction{Seat: seat, Kind: "play", N: n}); err != nil {
		f.t.Fatalf("seat %d plays %d: %v", seat, n, err)
	}
}
