package host_test

import (
	"context"
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// settledGoroutines is runtime.NumGoroutine once the goroutines that are
// ending have ended (a drain handing over, a test's helper): the count
// stops moving.
func settledGoroutines() int {
	n := runtime.NumGoroutine()
	for range 50 {
		time.Sleep(2 * time.Millisecond)
		m := runtime.NumGoroutine()
		if m == n {
			return n
		}
		n = m
	}
	return n
}

// TestTablesHaveNoGoroutine checks that a table in memory costs no
// goroutine: 200 tables in play, each with its turn timer armed and three
// bots waiting for the player on the move, add none (a goroutine per
// table would add 200).
func TestTablesHaveNoGoroutine(t *testing.T) {
	const tables = 200
	h := host.New(host.Config[toyAction, toyView, string]{}) // the real clock: timers armed, none due
	defer h.Close()
	ctx := context.Background()
	s := defaultSettings
	s.FillWithBots, s.TurnTime, s.ClaimTime = true, time.Hour, time.Hour
	before := settledGoroutines()
	for i := range tables {
		in, owner, err := h.Create(ctx, s, nil, newToy(1))
		if err != nil {
			t.Fatalf("Create %d: %v", i, err)
		}
		if _, _, err := h.Join(ctx, in.ID, "p", nil); err != nil {
			t.Fatalf("Join %d: %v", i, err)
		}
		if err := h.Start(ctx, in.ID, owner); err != nil {
			t.Fatalf("Start %d: %v", i, err)
		}
		if in, err := h.Get(ctx, in.ID); err != nil || in.State != host.Playing {
			t.Fatalf("table %d: %v, %v; want it playing", i, in.State, err)
		}
	}
	after := settledGoroutines()
	if extra := after - before; extra > 5 {
		t.Fatalf("goroutines: %d before, %d with %d tables in play: %d more, want none a table", before, after, tables, extra)
	}
}

// TestCallsRunOneAtATimeInOrder checks the executor's two promises: calls
// into one table never overlap, whoever runs them, and calls queued behind
// a busy table run in the order they were queued.
func TestCallsRunOneAtATimeInOrder(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)

	// Overlap: many callers at once, each checking it is alone.
	var inside atomic.Int32
	var calls int // not atomic: the race detector sees an overlap too
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				err := f.h.Inspect(context.Background(), f.id, func(host.Game[toyAction, toyView, string]) error {
					if inside.Add(1) != 1 {
						t.Error("two calls into one table at once")
					}
					calls++
					inside.Add(-1)
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if calls != 16*200 {
		t.Fatalf("calls = %d, want %d", calls, 16*200)
	}

	// Order: callers queued one after the other behind a busy table.
	release := busy(t, f)
	const n = 20
	var got []int
	done := make(chan error, n)
	for i := range n {
		ctx := &queuedCtx{Context: context.Background(), reached: make(chan struct{})}
		go func() {
			done <- f.h.Inspect(ctx, f.id, func(host.Game[toyAction, toyView, string]) error {
				got = append(got, i)
				return nil
			})
		}()
		<-ctx.reached // queued (the host asks Done as it queues)
	}
	release()
	for range n {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i, v := range got {
		if v != i {
			t.Fatalf("queued calls ran in the order %v, want the order queued", got)
		}
	}
}

// TestTimerDoesNotWaitForBusyTable checks that a timer that comes due
// while the table runs a long call only queues its work: the goroutine
// that fired it (here the test's, advancing the fake clock) goes on, and
// the work runs after the call.
func TestTimerDoesNotWaitForBusyTable(t *testing.T) {
	s := defaultSettings
	s.TurnTime = 10 * time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	release := busy(t, f)
	advanced := make(chan struct{})
	go func() {
		f.clk.Advance(s.TurnTime)
		close(advanced)
	}()
	select {
	case <-advanced:
	case <-time.After(5 * time.Second):
		release()
		t.Fatal("the timer waited for the busy table")
	}
	release()
	if _, err := f.h.Seat(context.Background(), f.id, f.tokens[1]); err != nil { // after the queued expiry
		t.Fatal(err)
	}
	var timedOut bool
	for _, e := range f.store.Entries(f.id) {
		timedOut = timedOut || e.Kind == host.EntryNotice && e.Notice.Kind == host.NoticeTimedOut
	}
	if !timedOut {
		t.Fatal("the turn that came due while the table was busy did not time out")
	}
}

// TestCloseWaitsForRunningCall checks that Close stops a busy table only
// once its call returned, and that a call queued behind it is answered
// with ErrClosed, not left waiting.
func TestCloseWaitsForRunningCall(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	release := busy(t, f)
	ctx := &queuedCtx{Context: context.Background(), reached: make(chan struct{})}
	queued := make(chan error, 1)
	go func() {
		queued <- f.h.Inspect(ctx, f.id, func(host.Game[toyAction, toyView, string]) error { return nil })
	}()
	<-ctx.reached
	closed := make(chan struct{})
	go func() {
		f.h.Close()
		close(closed)
	}()
	select {
	case <-closed:
		release()
		t.Fatal("Close returned while a call was running on a table")
	case <-time.After(50 * time.Millisecond):
	}
	release()
	<-closed
	if err := <-queued; !errors.Is(err, host.ErrClosed) {
		t.Fatalf("call queued behind Close = %v, want ErrClosed", err)
	}
}

// panickyDefault is a toy whose default move panics: the bug is hit by a
// timer, in whatever goroutine fires it.
type panickyDefault struct{ *toy }

func (g panickyDefault) Default(seat int) toyAction {
	if seat != host.System {
		panic("toy: a bug in the default move")
	}
	return g.toy.Default(seat)
}

// TestPanicInTimerSetsTableAside checks that a panic in work a timer
// brought (a timeout's default move) sets that table aside and nothing
// else: the goroutine that fired the timer goes on, and another table of
// the host plays on.
func TestPanicInTimerSetsTableAside(t *testing.T) {
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	h := host.New(host.Config[toyAction, toyView, string]{Clock: clk})
	defer h.Close()
	ctx := context.Background()
	s := defaultSettings
	s.TurnTime = 10 * time.Second
	bad, _, err := h.Create(ctx, s, nil, func() (host.Game[toyAction, toyView, string], error) {
		return panickyDefault{&toy{rounds: 1, claimer: -1}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	good, _, err := h.Create(ctx, defaultSettings, nil, newToyOffers(1, false, nil))
	if err != nil {
		t.Fatal(err)
	}
	joinAll(t, h, bad.ID)
	goodToks := joinAll(t, h, good.ID)

	clk.Advance(s.TurnTime) // the default move panics (in this goroutine, the table being idle)

	var p *host.PanicError
	_, err = h.Get(ctx, bad.ID)
	for deadline := time.Now().Add(5 * time.Second); err == nil && time.Now().Before(deadline); _, err = h.Get(ctx, bad.ID) {
		time.Sleep(time.Millisecond) // a busy table runs the timer's work after its call
	}
	if !errors.As(err, &p) || !errors.Is(err, host.ErrCorruptLog) {
		t.Fatalf("Get of the table whose timer panicked = %v, want a DamagedError with its panic", err)
	}
	for s, n := range []int{3, 3, 3, 1} {
		if err := actOn(h, good.ID, goodToks[s], toyAction{Seat: s, Kind: "play", N: n}, "g"); err != nil {
			t.Fatalf("good table, seat %d: %v", s, err)
		}
	}
	if in, err := h.Get(ctx, good.ID); err != nil || in.State != host.Finished {
		t.Fatalf("the other table: %v, %v; want it finished", in.State, err)
	}
}
