// Package clock gives time to the parts of the server that wait: the real
// clock in production, a fake one that tests move by hand, so that turn
// timers and delays are tested without sleeping.
package clock

import (
	"sort"
	"sync"
	"time"
)

// Clock tells the time and runs functions later.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine (real clock) or in the
	// goroutine that advances the clock (fake clock) once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc.
type Timer interface {
	// Stop cancels the call; it reports whether the call was still pending.
	Stop() bool
	// Reset schedules the call d from now, whether it was pending, stopped
	// or already made; it reports whether it was pending. As with
	// time.Timer, a call already started is not stopped: a caller that
	// reuses a timer must tell a late call of an earlier arm from its own.
	Reset(d time.Duration) bool
}

// Real is the system clock.
var Real Clock = realClock{}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }

// Fake is a clock that moves only when Advance is called. Its zero value is
// not usable; call NewFake.
type Fake struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	seq    int
	armed  chan struct{} // closed by the next AfterFunc (WaitPending)
}

// NewFake returns a fake clock set at t.
func NewFake(t time.Time) *Fake { return &Fake{now: t} }

// Now returns the fake time.
func (c *Fake) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc schedules f at Now()+d.
func (c *Fake) AfterFunc(d time.Duration, f func()) Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, f: f}
	c.schedule(t, d)
	return t
}

// schedule makes t pending at Now()+d, after the timers scheduled before
// it for the same time; c.mu is locked and t is not pending.
func (c *Fake) schedule(t *fakeTimer, d time.Duration) {
	c.seq++
	t.at, t.seq = c.now.Add(d), c.seq
	c.timers = append(c.timers, t)
	if c.armed != nil {
		close(c.armed)
		c.armed = nil
	}
}

// WaitPending waits until n timers or more are pending, or until timeout
// has passed in real time, and reports whether they are: how a test waits
// for goroutines to arm their timers without sleeping, and fails at once
// when they never do.
func (c *Fake) WaitPending(n int, timeout time.Duration) bool {
	limit := time.NewTimer(timeout)
	defer limit.Stop()
	for {
		c.mu.Lock()
		if len(c.timers) >= n {
			c.mu.Unlock()
			return true
		}
		if c.armed == nil {
			c.armed = make(chan struct{})
		}
		armed := c.armed
		c.mu.Unlock()
		select {
		case <-armed:
		case <-limit.C:
			return false
		}
	}
}

// Pending returns how many timers are waiting.
func (c *Fake) Pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.timers)
}

// Advance moves the clock forward by d and runs, in the calling goroutine
// and in time order, every function that came due (including those that the
// functions scheduled themselves within d).
func (c *Fake) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	c.mu.Unlock()
	for {
		c.mu.Lock()
		sort.SliceStable(c.timers, func(i, j int) bool {
			a, b := c.timers[i], c.timers[j]
			if !a.at.Equal(b.at) {
				return a.at.Before(b.at)
			}
			return a.seq < b.seq
		})
		if len(c.timers) == 0 || c.timers[0].at.After(end) {
			c.now = end
			c.mu.Unlock()
			return
		}
		t := c.timers[0]
		c.timers = c.timers[1:]
		if t.at.After(c.now) {
			c.now = t.at
		}
		c.mu.Unlock()
		t.f()
	}
}

type fakeTimer struct {
	c   *Fake
	at  time.Time
	f   func()
	seq int
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	return t.unschedule()
}

// Reset is Stop then AfterFunc with the same function and timer: pending
// once, wherever it was.
func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.unschedule()
	t.c.schedule(t, d)
	return was
}

// unschedule takes t out of the pending timers, if it is there; t.c.mu is
// locked.
func (t *fakeTimer) unschedule() bool {
	for i, o := range t.c.timers {
		if o == t {
			t.c.timers = append(t.c.timers[:i], t.c.timers[i+1:]...)
			return true
		}
	}
	return false
}
