package host

import (
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
)

// tableTimer is a timer a table arms again and again: its decision timer
// (a turn, a claim window, a round's pause, retryLater's retry) and its
// claim dwell's. The clock's timer is made on the first arm and re-armed
// with Reset after that, and what it calls is made once with it, so that
// arming, firing and posting allocate nothing: at 10,000 tables a
// time.AfterFunc and two closures a wait were a steady share of the
// server's allocation.
//
// Reset and Stop do not stop a call already started (its goroutine runs,
// or its post waits behind a busy runner), so a call of an earlier arm
// may reach the table after a re-arm or a stop. The timer keeps the
// deadline of the wait armed, and a call, on the table's runner, acts
// only if a wait is armed and the clock has reached its deadline (take).
// A timer never fires before its time, which is measured after the
// deadline is, and the clock is monotonic (the fake one's Now is the
// timer's time when it calls it): every arm's own call finds its deadline
// reached. So:
//   - a stale call after a re-arm finds the new deadline ahead and does
//     nothing; if the runner was so late that the new deadline passed too,
//     it ends the new wait, no earlier than that wait's own call would,
//     which then finds nothing armed;
//   - of two calls for one arm (a Reset racing the fire) the first ends
//     the wait and the second finds nothing armed;
//   - the call of a stopped arm finds nothing armed, or the deadline of
//     the next arm ahead;
//   - a table that stops (stopClocks) disarms its timers, and post refuses
//     calls to it anyway; a recovered table is a new table, whose timers
//     resume makes.
type tableTimer struct {
	timer clock.Timer  // nil until the first arm
	armed bool         // a wait is armed: its call has not acted yet
	due   time.Time    // the armed wait's deadline
	run   func()       // posted to the table when the timer fires; starts with take
	post  func(func()) // the table's post
	fire  func()       // the clock timer's function: r.fired, a method value made once
}

// init gives the timer its functions, once, before its first arm: the
// table's post and the method it posts (method values made once here).
func (r *tableTimer) init(post func(func()), run func()) {
	r.post, r.run = post, run
	r.fire = r.fired
}

// ready reports whether init was called.
func (r *tableTimer) ready() bool { return r.fire != nil }

// arm arms the timer for a wait of d from now, in place of the one armed,
// if any. The first arm makes the clock's timer.
func (r *tableTimer) arm(clk clock.Clock, d time.Duration) {
	r.due, r.armed = clk.Now().Add(d), true // before the timer is scheduled: never later than its time
	if r.timer == nil {
		r.timer = clk.AfterFunc(d, r.fire)
		return
	}
	r.timer.Reset(d)
}

// fired is the timer's function, on the clock's goroutine: it only posts.
func (r *tableTimer) fired() { r.post(r.run) }

// stop disarms the timer.
func (r *tableTimer) stop() {
	if r.armed {
		r.timer.Stop()
		r.armed = false
	}
}

// take, on the table's runner, reports whether the wait armed is due at
// now, and disarms the timer if it is: the armed wait ends once.
func (r *tableTimer) take(now time.Time) bool {
	if !r.armed || now.Before(r.due) {
		return false
	}
	// A stale call may have come first: the timer of this arm is still
	// pending then, with nothing left to do.
	r.stop()
	return true
}
