package host

import (
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
)

// timerRig is a tableTimer on a fake clock whose table is busy: the calls
// the timer posts wait in queued until the test runs them, as they wait
// behind a runner, so that a call of an earlier arm can reach the table
// after a re-arm or a stop.
type timerRig struct {
	clk    *clock.Fake
	r      tableTimer
	queued []func()
	acted  int           // calls that ended a wait
	late   time.Duration // how far the runner's clock is ahead of the timers' run
}

func newTimerRig() *timerRig {
	g := &timerRig{clk: clock.NewFake(time.Unix(1_700_000_000, 0))}
	g.r.init(func(f func()) { g.queued = append(g.queued, f) }, func() {
		if g.r.take(g.clk.Now().Add(g.late)) {
			g.acted++
		}
	})
	return g
}

// runQueued runs the calls posted so far, as the table's runner would.
func (g *timerRig) runQueued() {
	q := g.queued
	g.queued = nil
	for _, f := range q {
		f()
	}
}

// TestTableTimerLateCalls: whatever the order in which the calls of a
// reused timer reach the table, each armed wait ends once, never before
// its deadline, and a stopped one never.
func TestTableTimerLateCalls(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps func(g *timerRig, want func(acted, pending int))
	}{
		{"fires at its deadline", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second - time.Nanosecond)
			g.runQueued()
			want(0, 1)
			g.clk.Advance(time.Nanosecond)
			g.runQueued()
			want(1, 0)
		}},
		{"late call after a re-arm", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second) // its call waits behind the runner
			g.r.arm(g.clk, 2*time.Second)
			g.runQueued() // the late call: the new wait is not due
			want(0, 1)
			g.clk.Advance(2*time.Second - time.Nanosecond)
			g.runQueued()
			want(0, 1)
			g.clk.Advance(time.Nanosecond)
			g.runQueued()
			want(1, 0)
		}},
		{"late call after the new deadline too", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second)
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second) // both calls wait
			g.runQueued()              // the first ends the due wait, the second finds nothing
			want(1, 0)
		}},
		{"late call ends a due wait whose own call is pending", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second)
			g.r.arm(g.clk, time.Second)
			// The runner is so late that the new deadline passed before
			// the new call ran: the late call ends the new wait and stops
			// the timer of its own call.
			g.late = time.Second
			g.runQueued()
			want(1, 0)
			g.late = 0
			g.clk.Advance(time.Hour)
			g.runQueued()
			want(1, 0)
		}},
		{"two calls for one arm", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second)
			g.r.fired() // a Reset that raced the fire runs it again
			g.runQueued()
			want(1, 0)
		}},
		{"stop then re-arm", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second)
			g.r.stop()
			g.r.arm(g.clk, 3*time.Second)
			g.runQueued()
			want(0, 1)
			g.clk.Advance(3 * time.Second)
			g.runQueued()
			want(1, 0)
		}},
		{"late call after a stop", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.clk.Advance(time.Second)
			g.r.stop()
			g.runQueued()
			want(0, 0)
		}},
		{"stopped before its time", func(g *timerRig, want func(int, int)) {
			g.r.arm(g.clk, time.Second)
			g.r.stop()
			g.clk.Advance(time.Hour)
			g.runQueued()
			want(0, 0)
			g.r.arm(g.clk, time.Second) // and armed again after
			g.clk.Advance(time.Second)
			g.runQueued()
			want(1, 0)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := newTimerRig()
			tc.steps(g, func(acted, pending int) {
				t.Helper()
				if g.acted != acted || g.clk.Pending() != pending {
					t.Fatalf("%d waits ended, %d timers pending; want %d, %d", g.acted, g.clk.Pending(), acted, pending)
				}
			})
		})
	}
}

// TestArmAllocatesNothing: after a table's first wait, arming its timer
// for the next wait (a turn, a claim window) and its claim dwell's timer
// allocates nothing, on the real clock.
func TestArmAllocatesNothing(t *testing.T) {
	tb := &table[int, int, int]{clk: clock.Real, set: Settings{Seats: 4, TurnTime: time.Hour, ClaimTime: time.Hour}}
	defer tb.stopClocks()
	turn := Pending{Kind: WaitTurn, Seats: []int{0}}
	claim := Pending{Kind: WaitClaim, Seats: []int{1, 2}}
	wait := func() {
		tb.epoch++ // a new decision point: arm re-arms
		tb.arm(turn)
		tb.epoch++
		tb.arm(claim)
		tb.armDwellAfter(time.Hour)
	}
	wait() // the first arms make the timers
	if n := testing.AllocsPerRun(100, wait); n != 0 {
		t.Fatalf("arming a table's timers: %v allocations, want 0", n)
	}
	if !tb.timer.armed || !tb.holdEnd.armed {
		t.Fatal("the timers are not armed")
	}
}
