package host_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// newVoteFixture is a fixture whose toy opens every round with a vote of
// all four seats (newToyVotes); the four players join, which starts the
// table and deals the first round.
func newVoteFixture(t *testing.T, s host.Settings, rounds int, cfg host.Config[toyAction, toyView, string]) *fixture {
	t.Helper()
	f := &fixture{t: t, clk: clock.NewFake(time.Unix(1_700_000_000, 0)), store: host.NewMemoryStore[toyAction]()}
	cfg.Clock, cfg.Store = f.clk, f.store
	f.h = host.New(cfg)
	t.Cleanup(f.h.Close)
	info, owner, err := f.h.Create(context.Background(), s, []byte("meta"), newToyVotes(rounds))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	f.id, f.owner = info.ID, owner
	f.join(4)
	return f
}

// toy is a copy of the table's game, read in the table's goroutine.
func (f *fixture) toy() toy {
	f.t.Helper()
	var g toy
	if err := f.h.Inspect(context.Background(), f.id, func(hg host.Game[toyAction, toyView, string]) error {
		g = *hg.(*toy)
		return nil
	}); err != nil {
		f.t.Fatal(err)
	}
	return g
}

// heads is every seat's newest seq.
func (f *fixture) heads() [4]uint64 {
	f.t.Helper()
	var h [4]uint64
	for s := range h {
		h[s] = f.seq(s)
	}
	return h
}

// voteAll has the seats cast their votes at once, each with the last seq
// given, and returns their answers.
func (f *fixture) voteAll(seats []int, last [4]uint64, prefix string) []error {
	errs := make([]error, len(seats))
	var wg sync.WaitGroup
	for i, s := range seats {
		wg.Go(func() {
			_, errs[i] = f.act(s, fmt.Sprintf("%s-%d", prefix, s), last[s], toyAction{Seat: s, Kind: "vote", N: 2})
		})
	}
	wg.Wait()
	return errs
}

// TestSimultaneousDecisionsNotStale: four seats vote at once, each with
// the last seq it had before any vote, and every vote is taken at the
// first try - the announcements of the others' votes (Out.Simultaneous)
// do not make a decision stale - while every seat's numbering stays
// contiguous. The event that ends the vote is an ordinary one: an action
// decided before it is refused as stale.
func TestSimultaneousDecisionsNotStale(t *testing.T) {
	f := newVoteFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	fls := make([]*follower, 4)
	for s := range fls {
		fls[s] = f.follow(s, 0)
		// Its first snapshot before any vote, so that the votes reach it
		// as events (a stream that opened later would get them folded
		// into its snapshot).
		fls[s].first(t, 1)
	}
	before := f.heads()
	for s, err := range f.voteAll([]int{0, 1, 2, 3}, before, "vote") {
		if err != nil {
			t.Fatalf("seat %d's vote at seq %d = %v, want it taken", s, before[s], err)
		}
	}
	after := f.heads()
	for s := range 4 {
		// Four public votes, its own private one, the end of the vote.
		if after[s] != before[s]+6 {
			t.Errorf("seat %d at seq %d after the vote, want %d", s, after[s], before[s]+6)
		}
		fl := fls[s]
		fl.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Event != nil && it.Event.Body == "vote over" })
		want := uint64(0)
		for _, it := range fl.snapshot() {
			if it.Snapshot != nil {
				want = it.Snapshot.Seq
				continue
			}
			if want++; it.Event.Seq != want {
				t.Fatalf("seat %d: event %d after %d", s, it.Event.Seq, want-1)
			}
		}
	}
	// The turn starts with "vote over": a play decided before it is stale.
	turn := f.toy().turn
	_, err := f.act(turn, "play-early", after[turn]-1, toyAction{Seat: turn, Kind: "play", N: 1})
	var stale *host.StaleSeqError
	if !errors.As(err, &stale) || stale.Newest != after[turn] {
		t.Fatalf("play on the view before the vote's end = %v, want a StaleSeqError with newest %d", err, after[turn])
	}
	if _, err := f.act(turn, "play", after[turn], toyAction{Seat: turn, Kind: "play", N: 1}); err != nil {
		t.Fatalf("play on the newest view = %v", err)
	}
}

// TestSimultaneousKeepsTheTimer: a vote announced does not start the turn
// timer again for the seats still voting, so one turn time after the
// deal every seat that did not vote is played by default at once.
func TestSimultaneousKeepsTheTimer(t *testing.T) {
	set := host.Settings{Seats: 4, TurnTime: 10 * time.Second}
	f := newVoteFixture(t, set, 1, host.Config[toyAction, toyView, string]{})
	before := f.heads()
	f.clk.Advance(6 * time.Second)
	if _, err := f.act(2, "v", before[2], toyAction{Seat: 2, Kind: "vote", N: 3}); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(4 * time.Second)
	fl := f.follow(0, before[0])
	fl.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Event != nil && it.Event.Body == "vote over" })
	timedOut := 0
	for _, it := range fl.snapshot() {
		if it.Event != nil && it.Event.Notice != nil && it.Event.Notice.Kind == host.NoticeTimedOut {
			timedOut++
		}
	}
	if timedOut != 1 {
		t.Errorf("seat 0 saw %d timeout notices, want its own", timedOut)
	}
}

// TestSimultaneousRecovered: the bar of every seat is the same after
// recovery, from a snapshot (taken at the end of round 1) and the log
// after it: two seats vote, the host stops, and on a new host the two
// others vote with the seqs they had before any vote, taken at once.
func TestSimultaneousRecovered(t *testing.T) {
	store := host.NewMemoryStore[toyAction]()
	cfg := host.Config[toyAction, toyView, string]{Codec: toyCodec{}}
	f := &fixture{t: t, clk: clock.NewFake(time.Unix(1_700_000_000, 0)), store: store}
	cfg.Clock, cfg.Store = f.clk, store
	f.h = host.New(cfg)
	info, owner, err := f.h.Create(context.Background(), defaultSettings, []byte("meta"), newToyVotes(2))
	if err != nil {
		t.Fatal(err)
	}
	f.id, f.owner = info.ID, owner
	f.join(4)
	// Round 1: everyone votes, then plays 3 until the round ends.
	for s, err := range f.voteAll([]int{0, 1, 2, 3}, f.heads(), "r1") {
		if err != nil {
			t.Fatalf("round 1 vote of seat %d: %v", s, err)
		}
	}
	for n := 0; ; n++ {
		g := f.toy()
		if g.round != 1 || !g.dealt {
			break
		}
		p := g.Pending()
		s := p.Seats[0]
		a := toyAction{Seat: s, Kind: "play", N: 3}
		if p.Kind == host.WaitClaim {
			a.Kind = "pass"
		}
		if _, err := f.act(s, fmt.Sprintf("play-%d", n), f.seq(s), a); err != nil {
			t.Fatalf("round 1, %+v: %v", a, err)
		}
	}
	if _, ok := store.Snapshot(f.id); !ok {
		t.Fatal("no snapshot after round 1")
	}
	if g := f.toy(); g.round != 2 || !g.voting() {
		t.Fatalf("game %+v, want round 2's vote", g)
	}
	before := f.heads()
	for s, err := range f.voteAll([]int{1, 3}, before, "r2") {
		if err != nil {
			t.Fatalf("round 2 vote %d: %v", s, err)
		}
	}
	// A seat that votes again is refused by the game, not as stale.
	if _, err := f.act(1, "again", before[1], toyAction{Seat: 1, Kind: "vote", N: 1}); !errors.Is(err, errToy) || errors.Is(err, host.ErrStaleSeq) {
		t.Fatalf("second vote = %v, want the game's refusal", err)
	}
	f.h.Close()

	f.clk = clock.NewFake(f.clk.Now().Add(time.Minute))
	cfg.Clock = f.clk
	f.h = host.New(cfg)
	defer f.h.Close()
	if n, err := f.h.Recover(context.Background(), func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return newToyVotes(2), nil
	}); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	for s, err := range f.voteAll([]int{0, 2}, before, "r2") {
		if err != nil {
			t.Fatalf("vote %d after recovery, with the seq of before the first: %v", s, err)
		}
	}
	g := f.toy()
	if g.round != 2 || g.voting() {
		t.Fatalf("game after the votes %+v, want round 2 in play", g)
	}
	turn := g.turn
	if _, err := f.act(turn, "late", before[turn], toyAction{Seat: turn, Kind: "play", N: 1}); !errors.Is(err, host.ErrStaleSeq) {
		t.Fatalf("play at seq %d after the vote's end = %v, want ErrStaleSeq", before[turn], err)
	}
}
