package clock

import (
	"testing"
	"time"
)

func TestFakeAdvance(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := NewFake(t0)
	var got []int
	c.AfterFunc(3*time.Second, func() { got = append(got, 3) })
	c.AfterFunc(1*time.Second, func() {
		got = append(got, 1)
		c.AfterFunc(1*time.Second, func() { got = append(got, 2) })
	})
	stopped := c.AfterFunc(2*time.Second, func() { got = append(got, -1) })
	if !stopped.Stop() {
		t.Fatal("Stop() = false for a pending timer, want true")
	}
	if stopped.Stop() {
		t.Fatal("second Stop() = true, want false")
	}
	c.Advance(2500 * time.Millisecond)
	if want := []int{1, 2}; !equal(got, want) {
		t.Fatalf("after 2.5s ran %v, want %v", got, want)
	}
	if now, want := c.Now(), t0.Add(2500*time.Millisecond); !now.Equal(want) {
		t.Fatalf("Now() = %v, want %v", now, want)
	}
	c.Advance(time.Second)
	if want := []int{1, 2, 3}; !equal(got, want) {
		t.Fatalf("after 3.5s ran %v, want %v", got, want)
	}
	if c.Pending() != 0 {
		t.Fatalf("Pending() = %d, want 0", c.Pending())
	}
}

func equal(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFakeWaitPending(t *testing.T) {
	c := NewFake(time.Unix(1000, 0))
	if c.WaitPending(1, time.Millisecond) {
		t.Fatal("WaitPending(1) = true with no timer")
	}
	go func() {
		c.AfterFunc(time.Second, func() {})
		c.AfterFunc(time.Second, func() {})
	}()
	if !c.WaitPending(2, 10*time.Second) {
		t.Fatalf("WaitPending(2) = false with %d timers", c.Pending())
	}
	if !c.WaitPending(0, 0) {
		t.Fatal("WaitPending(0) = false")
	}
}

// TestFakeReset: a reset timer is pending once, at its new time and after
// the timers scheduled before the reset for the same time, whether it was
// pending, stopped or had fired; Reset reports whether it was pending.
func TestFakeReset(t *testing.T) {
	for _, tc := range []struct {
		name      string
		before    func(c *Fake, tm Timer) // what became of the timer first
		wasActive bool
	}{
		{"pending", func(*Fake, Timer) {}, true},
		{"stopped", func(_ *Fake, tm Timer) { tm.Stop() }, false},
		{"fired", func(c *Fake, _ Timer) { c.Advance(time.Second) }, false},
		{"reset twice", func(_ *Fake, tm Timer) { tm.Reset(5 * time.Second) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewFake(time.Unix(1000, 0))
			var got []int
			tm := c.AfterFunc(time.Second, func() { got = append(got, 1) })
			tc.before(c, tm)
			got = nil
			c.AfterFunc(2*time.Second, func() { got = append(got, 2) })
			if was := tm.Reset(2 * time.Second); was != tc.wasActive {
				t.Fatalf("Reset() = %v, want %v", was, tc.wasActive)
			}
			if n := c.Pending(); n != 2 {
				t.Fatalf("Pending() = %d after Reset, want 2", n)
			}
			c.Advance(2*time.Second - time.Nanosecond)
			if len(got) != 0 {
				t.Fatalf("ran %v before the reset time", got)
			}
			c.Advance(time.Nanosecond)
			if want := []int{2, 1}; !equal(got, want) {
				t.Fatalf("ran %v, want %v (the reset one after the one scheduled before it)", got, want)
			}
			if c.Pending() != 0 {
				t.Fatalf("Pending() = %d after both ran, want 0", c.Pending())
			}
		})
	}
}

// TestFakeNowAtFire: a timer's function finds the clock at the timer's
// time, not at the end of the Advance that runs it: what a reused timer's
// owner checks its deadline against.
func TestFakeNowAtFire(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := NewFake(t0)
	var at time.Time
	c.AfterFunc(time.Second, func() { at = c.Now() })
	c.Advance(time.Minute)
	if want := t0.Add(time.Second); !at.Equal(want) {
		t.Fatalf("Now() in the function = %v, want %v", at, want)
	}
}

// TestFakeResetWakesWaitPending: a reset counts as an arm for WaitPending.
func TestFakeResetWakesWaitPending(t *testing.T) {
	c := NewFake(time.Unix(1000, 0))
	tm := c.AfterFunc(time.Second, func() {})
	tm.Stop()
	go tm.Reset(time.Second)
	if !c.WaitPending(1, 10*time.Second) {
		t.Fatal("WaitPending(1) = false after Reset")
	}
}

// TestRealReset: the real clock's timer reruns its function after a Reset.
func TestRealReset(t *testing.T) {
	ran := make(chan struct{}, 2)
	tm := Real.AfterFunc(time.Millisecond, func() { ran <- struct{}{} })
	<-ran
	if tm.Reset(time.Millisecond) {
		t.Fatal("Reset() = true for a timer that fired")
	}
	<-ran
}
