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
