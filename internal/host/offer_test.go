package host_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// first waits until the stream delivered at least n items and returns
// them described; the time limit only bounds a broken test.
func (fl *follower) first(t *testing.T, n int) []string {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		if got := fl.bodies(); len(got) >= n {
			return got
		}
		select {
		case <-fl.more:
		case <-limit:
			t.Fatalf("stream delivered %v, want %d items", fl.bodies(), n)
		}
	}
}

// TestOfferAfterSnapshot opens streams while a seat has an offer: the
// snapshot is numbered just before the offer, which follows as an event
// with the number it always had, then whatever came after it; a resumed
// stream gets the offer once if it is after after_seq, never twice; once
// answered, the offer is not sent again.
func TestOfferAfterSnapshot(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	if _, err := f.act(0, "p", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); err != nil {
		t.Fatal(err)
	}
	// Seat 2's newest event is its offer.
	offer := f.seq(2)
	n := func(k uint64, what string) string { return fmt.Sprintf("%d:%s", offer+k, what) }
	snap := fmt.Sprintf("snapshot@%d", offer-1)
	fl := f.follow(2, 0)
	if got, want := fl.first(t, 2), []string{snap, n(0, "offer")}; !slices.Equal(got, want) {
		t.Fatalf("new stream of seat 2 = %v, want %v", got, want)
	}
	fl.stop()
	fl.wait()

	// A notice after the offer: it follows the offer, numbered as before.
	if err := f.h.Leave(context.Background(), f.id, f.tokens[3]); err != nil {
		t.Fatal(err)
	}
	fl = f.follow(2, 0)
	want := []string{snap, n(0, "offer"), n(1, "left/3"), n(2, "bot_took_over/3")}
	if got := fl.first(t, 4); !slices.Equal(got, want) {
		t.Fatalf("new stream of seat 2 = %v, want %v", got, want)
	}
	fl.stop()
	fl.wait()
	if v := viewOf(t, f, 2); v.Total != 2 {
		t.Fatalf("snapshot view total %d, want 2", v.Total)
	}

	// Resumed streams: after the offer nothing is repeated; before it the
	// offer comes once.
	for after, want := range map[uint64][]string{
		offer - 1: {n(0, "offer"), n(1, "left/3"), n(2, "bot_took_over/3")},
		offer:     {n(1, "left/3"), n(2, "bot_took_over/3")},
	} {
		fl := f.follow(2, after)
		if got := fl.first(t, len(want)); !slices.Equal(got, want) {
			t.Fatalf("stream of seat 2 after %d = %v, want %v", after, got, want)
		}
		fl.stop()
		fl.wait()
	}

	// Seat 1, whose turn comes after the window, has no offer: its
	// snapshot is its newest event.
	if got, want := snapshotOf(t, f, 1).Seq, f.seq(1); got != want {
		t.Fatalf("snapshot of seat 1 at %d, want its newest %d", got, want)
	}

	// Answered: the offer does not stand any more.
	if _, err := f.act(2, "pass", f.seq(2), toyAction{Seat: 2, Kind: "pass"}); err != nil {
		t.Fatal(err)
	}
	if got, want := snapshotOf(t, f, 2).Seq, f.seq(2); got != want {
		t.Fatalf("snapshot of seat 2 after its pass at %d, want its newest %d", got, want)
	}
}

// TestOfferAfterSnapshotInDwell opens the stream of the seat a claim
// dwell waits for: its snapshot comes at once, before its offer.
func TestOfferAfterSnapshotInDwell(t *testing.T) {
	s := defaultSettings
	s.ClaimDwell = 2 * time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	if _, err := f.act(0, "p", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); err != nil {
		t.Fatal(err)
	}
	offer := f.seq(2)
	fl := f.follow(2, 0)
	want := []string{fmt.Sprintf("snapshot@%d", offer-1), fmt.Sprintf("%d:offer", offer)}
	if got := fl.first(t, 2); !slices.Equal(got, want) {
		t.Fatalf("new stream of seat 2 in the dwell = %v, want %v", got, want)
	}
}

// TestTimeoutNoticeFirst lets seat 0's turn and seat 2's claim window run
// out: each seat's timeout notice comes before the events its automatic
// move caused, live and after a recovery from the log.
func TestTimeoutNoticeFirst(t *testing.T) {
	s := defaultSettings
	s.TurnTime, s.ClaimTime = 10*time.Second, 3*time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	b := f.seq(0) // seat 0 holds its secret; its turn
	st0 := f.follow(0, 0)
	st0.first(t, 1)
	f.clk.Advance(10 * time.Second)
	want0 := []string{fmt.Sprintf("snapshot@%d", b), fmt.Sprintf("%d:timed_out/0", b+1), fmt.Sprintf("%d:play 0 1", b+2)}
	if got := st0.first(t, 3); !slices.Equal(got[:3], want0) {
		t.Fatalf("seat 0's stream = %v, want %v first", got, want0)
	}
	o := f.seq(2)
	st2 := f.follow(2, o-1)
	st2.first(t, 1) // the offer
	f.clk.Advance(3 * time.Second)
	// The pass publishes nothing; the notice is seat 2's only event.
	if got, want := st2.first(t, 2), []string{fmt.Sprintf("%d:offer", o), fmt.Sprintf("%d:timed_out/2", o+1)}; !slices.Equal(got, want) {
		t.Fatalf("seat 2's stream = %v, want %v", got, want)
	}
	st0.stop()
	st0.wait()
	st2.stop()
	st2.wait()
	f.h.Close()

	// The log replays in the same order.
	clk := clock.NewFake(f.clk.Now())
	h := host.New(host.Config[toyAction, toyView, string]{Clock: clk, Store: f.store})
	defer h.Close()
	if n, err := h.Recover(context.Background(), func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return newToy(1), nil
	}); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	f.h, f.clk = h, clk
	fl := f.follow(0, b)
	if got := fl.first(t, 2); !slices.Equal(got[:2], want0[1:]) {
		t.Fatalf("seat 0's stream after recovery = %v", got)
	}
}
