package host_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// gaveUpCtx is a context that ends right after the request it carries was
// queued to a table: its first Done is nil (never), every later one is
// closed. It makes "the caller gave up while the table was busy" happen
// every time.
type gaveUpCtx struct {
	context.Context
	dones atomic.Int32
}

var closedCh = func() chan struct{} { ch := make(chan struct{}); close(ch); return ch }()

func (c *gaveUpCtx) Done() <-chan struct{} {
	if c.dones.Add(1) == 1 {
		return nil
	}
	return closedCh
}

func (c *gaveUpCtx) Err() error {
	if c.dones.Load() > 1 {
		return context.Canceled
	}
	return nil
}

// busy holds a table's goroutine until the returned release is called.
func busy(t *testing.T, f *fixture) (release func()) {
	t.Helper()
	entered, gate, done := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		f.h.Inspect(context.Background(), f.id, func(host.Game[toyAction, toyView, string]) error {
			close(entered)
			<-gate
			return nil
		})
	}()
	<-entered
	return func() { close(gate); <-done }
}

// TestFollowGivenUpLeavesNoStream checks that a stream whose caller gave
// up while the table was busy does not count as open: the seat is not
// connected, and its grace period still hands it to a bot.
func TestFollowGivenUpLeavesNoStream(t *testing.T) {
	s := defaultSettings
	s.DisconnectGrace = 10 * time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	release := busy(t, f)
	for range 3 {
		err := f.h.Follow(&gaveUpCtx{Context: context.Background()}, f.id, f.tokens[2], 0, func(host.Item[toyView, string]) error { return nil })
		if !errors.Is(err, context.Canceled) {
			release()
			t.Fatalf("Follow given up = %v, want context.Canceled", err)
		}
	}
	release()
	if _, err := f.h.Seat(context.Background(), f.id, f.tokens[2]); err != nil { // after every queued open
		t.Fatalf("Seat: %v", err)
	}
	if in := f.info(); in.Seats[2].Connected {
		t.Fatalf("seat 2 connected after its only streams were given up: %+v", in.Seats[2])
	}
	f.clk.Advance(s.DisconnectGrace)
	if _, err := f.h.Seat(context.Background(), f.id, f.tokens[2]); err != nil {
		t.Fatalf("Seat: %v", err)
	}
	if in := f.info(); !in.Seats[2].Bot {
		t.Fatalf("seat 2 not played by a bot after its grace period: %+v", in.Seats[2])
	}
}

// queuedCtx is a context that tells when a request has reached the table:
// reached is closed at its first Done, which the host asks once it holds
// the table.
type queuedCtx struct {
	context.Context
	once    sync.Once
	reached chan struct{}
}

func (c *queuedCtx) Done() <-chan struct{} {
	c.once.Do(func() { close(c.reached) })
	return c.Context.Done()
}

// TestFollowRacingEviction checks that a stream that opens as its
// finished table leaves memory is served from the store, as it would be
// a moment later.
func TestFollowRacingEviction(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	gameFor := func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return newToy(lifeRounds), nil
	}
	cfg := host.Config[toyAction, toyView, string]{FinishedTTL: time.Minute, GameFor: gameFor, Codec: toyCodec{}}
	h, clk, _ := lifeHost(t, st, time.Unix(1_700_000_000, 0), cfg)
	f := fixtureOn(t, h, clk, st, lifeSettings, 1)
	f.startAndFinish()
	last := f.info().LastSeq
	release := busy(t, f)
	clk.Advance(time.Minute) // the eviction waits behind the busy table
	ctx := &queuedCtx{Context: context.Background(), reached: make(chan struct{})}
	var items []host.Item[toyView, string]
	done := make(chan error, 1)
	go func() {
		done <- h.Follow(ctx, f.id, f.tokens[0], 0, func(it host.Item[toyView, string]) error {
			items = append(items, kept(it))
			return nil
		})
	}()
	<-ctx.reached
	release()
	if err := <-done; err != nil {
		t.Fatalf("Follow as the finished table left memory = %v, want its events from the store", err)
	}
	if len(items) == 0 || items[0].Snapshot == nil || items[0].Snapshot.View.Round != lifeRounds {
		t.Fatalf("stream %v, want the final snapshot", items)
	}
	if in := f.info(); in.LastSeq != last || in.State != host.Finished {
		t.Fatalf("read back %+v", in)
	}
}

// heldCtx is a context whose second Done blocks until gate is closed:
// the caller then looks at its answer only when told to. entered is
// closed when the second Done is asked.
type heldCtx struct {
	context.Context
	dones         atomic.Int32
	entered, gate chan struct{}
}

func (c *heldCtx) Done() <-chan struct{} {
	if c.dones.Add(1) == 2 {
		close(c.entered)
		<-c.gate
	}
	return nil
}

// TestAnswerBeforeClose checks that a request the table carried out just
// before the host closed gets its answer, not ErrClosed: a join answered
// ErrClosed would leave a seat taken by nobody.
func TestAnswerBeforeClose(t *testing.T) {
	for i := range 40 {
		f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
		release := busy(t, f)
		ctx := &heldCtx{Context: context.Background(), entered: make(chan struct{}), gate: make(chan struct{})}
		type joined struct {
			seat int
			err  error
		}
		done := make(chan joined, 1)
		go func() {
			seat, _, err := f.h.Join(ctx, f.id, "late", nil)
			done <- joined{seat, err}
		}()
		<-ctx.entered // the join is queued
		release()
		f.h.Inspect(context.Background(), f.id, func(host.Game[toyAction, toyView, string]) error { return nil }) // after the join
		f.h.Close()
		close(ctx.gate)
		if j := <-done; j.err != nil {
			t.Fatalf("try %d: Join carried out before Close = %v, want its seat", i, j.err)
		}
	}
}
