package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// dwellTable is a toy table with a claim dwell whose seats 1 and 3 are
// recorded from the start.
type dwellTable struct {
	*fixture
	recs [4]*recorder
}

func newDwellTable(t *testing.T, offers bool) *dwellTable {
	t.Helper()
	s := host.Settings{Seats: 4, ClaimTime: 5 * time.Second, ClaimDwell: 2 * time.Second}
	f := &fixture{t: t, clk: clock.NewFake(time.Unix(1_700_000_000, 0)), store: host.NewMemoryStore[toyAction]()}
	f.h = host.New(host.Config[toyAction, toyView, string]{Clock: f.clk, Store: f.store})
	t.Cleanup(f.h.Close)
	info, owner, err := f.h.Create(context.Background(), s, nil, newToyOffers(1, offers, nil))
	if err != nil {
		t.Fatal(err)
	}
	f.id, f.owner = info.ID, owner
	d := &dwellTable{fixture: f}
	f.join(4)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	for s := range 4 {
		d.recs[s] = record(ctx, f.h, f.id, f.tokens[s], 1)
	}
	return d
}

// TestClaimDwellHidesOffers plays the same moves at two tables that differ
// only in whether a seat gets a claim offer after each play (and passes it
// half a second later). Seat 1, never offered anything, must see the same
// events with the same numbers at the same times, get the same answers to
// its own actions during the window, and wait alike for a snapshot.
func TestClaimDwellHidesOffers(t *testing.T) {
	var seen [2][]string
	var answers [2][]string
	for i, offers := range []bool{true, false} {
		d := newDwellTable(t, offers)
		f := d.fixture
		n := 0
		ans := func(seat int, a toyAction) {
			n++
			_, err := f.act(seat, fmt.Sprint("x", n), f.seq(seat), a)
			answers[i] = append(answers[i], errString(err))
		}
		for turn := range 3 {
			mover := turn % 4
			if _, err := f.act(mover, "p", f.seq(mover), toyAction{Seat: mover, Kind: "play", N: 2}); err != nil && turn == 0 {
				t.Fatalf("offers %v: play: %v", offers, err)
			}
			// During the dwell: the next seat may not play yet, nobody
			// without an offer may pass, and a new stream's snapshot waits.
			next := (mover + 1) % 4
			ans(next, toyAction{Seat: next, Kind: "play", N: 1})
			ans(3-mover%2*2, toyAction{Seat: 3 - mover%2*2, Kind: "pass"})
			snap := f.follow(next, 0)
			f.clk.Advance(500 * time.Millisecond)
			if offers {
				claimer := (mover + 2) % 4
				if _, err := f.act(claimer, "c", f.seq(claimer), toyAction{Seat: claimer, Kind: "pass"}); err != nil {
					t.Fatalf("pass of the offered seat %d: %v", claimer, err)
				}
				// Its second answer gets what everyone else gets.
				if _, err := f.act(claimer, "c2", f.seq(claimer), toyAction{Seat: claimer, Kind: "pass"}); !errors.Is(err, host.ErrWindowOpen) {
					t.Fatalf("second pass of seat %d = %v, want ErrWindowOpen", claimer, err)
				}
			}
			ans(next, toyAction{Seat: next, Kind: "play", N: 1})
			f.seq(0) // a barrier: the table has handled everything so far
			if len(snap.snapshot()) != 0 {
				t.Fatalf("offers %v: a snapshot during the dwell: %v", offers, snap.bodies())
			}
			f.clk.Advance(1500 * time.Millisecond)
			snap.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
			snap.stop()
			_ = snap.wait()
			// Nobody moves for a second: the turn is the next seat's.
			f.clk.Advance(time.Second)
		}
		// The recorder runs behind the table; wait for what it has.
		seen[i] = d.recs[1].waitLen(t, int(f.seq(1)-1))
	}
	if !slices.Equal(seen[0], seen[1]) {
		t.Errorf("seat 1 saw, with offers to others:\n%v\nwithout:\n%v", seen[0], seen[1])
	}
	if !slices.Equal(answers[0], answers[1]) {
		t.Errorf("answers with offers %v, without %v", answers[0], answers[1])
	}
	for _, a := range answers[0] {
		if a != "window open" {
			t.Errorf("an action during the dwell was answered %q, want the window to be open", a)
		}
	}
}

func errString(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, host.ErrWindowOpen):
		return "window open"
	}
	return err.Error()
}

// seq is a seat's newest seq, without a snapshot (which a dwell holds back).
func (f *fixture) seq(seat int) uint64 {
	f.t.Helper()
	n, err := f.h.SeatSeq(context.Background(), f.id, f.tokens[seat])
	if err != nil {
		f.t.Fatalf("SeatSeq: %v", err)
	}
	if !f.async {
		f.h.WaitSnapshots(f.id) // a barrier for the snapshot writes too
	}
	return n
}

// TestClaimDwellWaitsForAnswers lets the offered seat answer after the
// dwell: the window stays open until it does, and the game goes on at once
// after its answer.
func TestClaimDwellWaitsForAnswers(t *testing.T) {
	d := newDwellTable(t, true)
	f := d.fixture
	if _, err := f.act(0, "p", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(3 * time.Second)
	if v := viewOf(t, f, 1); v.Turn != 1 || v.Total != 2 {
		t.Fatalf("view of seat 1 after the dwell = %+v", v)
	}
	// The window still waits for seat 2: seat 1 may not play.
	if _, err := f.act(1, "q", f.seq(1), toyAction{Seat: 1, Kind: "play", N: 1}); !errors.Is(err, errToy) {
		t.Fatalf("play of seat 1 while seat 2 decides = %v, want the game's refusal", err)
	}
	if _, err := f.act(2, "c", f.seq(2), toyAction{Seat: 2, Kind: "claim"}); err != nil {
		t.Fatalf("claim after the dwell: %v", err)
	}
	d.recs[1].waitFor(t, ":claim 2")
}

// waitFor waits until the recorder has an event ending in suffix; the time
// limit only bounds a broken test.
func (r *recorder) waitFor(t *testing.T, suffix string) {
	t.Helper()
	r.waitUntil(t, fmt.Sprintf("an event ending in %q", suffix), func(evs []string) bool {
		return slices.ContainsFunc(evs, func(s string) bool { return strings.HasSuffix(s, suffix) })
	})
}

// TestClaimDwellOffForBots: a table of bots only has no dwell.
func TestClaimDwellOffForBots(t *testing.T) {
	s := host.Settings{Seats: 4, ClaimDwell: time.Hour, FillWithBots: true}
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	h := host.New(host.Config[toyAction, toyView, string]{Clock: clk, Bot: func() host.Bot[toyAction, toyView] { return maxBot{} }})
	defer h.Close()
	info, owner, err := h.Create(context.Background(), s, nil, newToy(2))
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Start(context.Background(), info.ID, owner); err != nil {
		t.Fatal(err)
	}
	if in, _ := h.Get(context.Background(), info.ID); in.State != host.Finished {
		t.Fatalf("bot table state %v without the clock moving, want finished", in.State)
	}
}
