package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type toyHost = host.Host[toyAction, toyView, string]

type fixture struct {
	t      *testing.T
	clk    *clock.Fake
	store  *host.MemoryStore[toyAction]
	h      *toyHost
	id     string
	owner  string
	tokens [4]string
	async  bool // act and seq do not wait for snapshot writes
}

var defaultSettings = host.Settings{Seats: 4}

// newFixture makes a host with a fake clock and a table with settings s.
func newFixture(t *testing.T, s host.Settings, rounds int, cfg host.Config[toyAction, toyView, string]) *fixture {
	t.Helper()
	f := &fixture{t: t, clk: clock.NewFake(time.Unix(1_700_000_000, 0)), store: host.NewMemoryStore[toyAction]()}
	cfg.Clock, cfg.Store = f.clk, f.store
	f.h = host.New(cfg)
	t.Cleanup(f.h.Close)
	info, owner, err := f.h.Create(context.Background(), s, []byte("meta"), newToy(rounds))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	f.id, f.owner = info.ID, owner
	return f
}

// join takes n seats.
func (f *fixture) join(n int) {
	f.t.Helper()
	for i := range n {
		seat, tok, err := f.h.Join(context.Background(), f.id, fmt.Sprintf("p%d", i), []byte{byte(i)})
		if err != nil {
			f.t.Fatalf("Join %d: %v", i, err)
		}
		if seat != i {
			f.t.Fatalf("Join %d got seat %d", i, seat)
		}
		f.tokens[i] = tok
	}
}

// act sends a request, then waits for the snapshot writes it caused.
func (f *fixture) act(seat int, id string, last uint64, a toyAction) (uint64, error) {
	seq, err := f.h.Act(context.Background(), f.id, host.Request[toyAction]{Token: f.tokens[seat], LastSeq: last, RequestID: id, Action: a})
	if !f.async {
		f.h.WaitSnapshots(f.id)
	}
	return seq, err
}

func (f *fixture) info() host.Info {
	f.t.Helper()
	in, err := f.h.Get(context.Background(), f.id)
	if err != nil {
		f.t.Fatalf("Get: %v", err)
	}
	return in
}

// follower collects a stream in the background.
type follower struct {
	mu    sync.Mutex
	items []host.Item[toyView, string]
	more  chan struct{}
	ended chan struct{} // closed when Follow returned, with err set
	err   error
	stop  context.CancelFunc
}

// wait waits for the stream to end and returns Follow's result.
func (fl *follower) wait() error {
	<-fl.ended
	return fl.err
}

// kept is an item as a stream's send may keep it: its event copied, as
// the stream reuses it for the next.
func kept(it host.Item[toyView, string]) host.Item[toyView, string] {
	if it.Event != nil {
		e := *it.Event
		it.Event = &e
	}
	return it
}

func (f *fixture) follow(seat int, after uint64) *follower {
	ctx, cancel := context.WithCancel(context.Background())
	fl := &follower{more: make(chan struct{}, 1), ended: make(chan struct{}), stop: cancel}
	go func() {
		defer close(fl.ended)
		fl.err = f.h.Follow(ctx, f.id, f.tokens[seat], after, func(it host.Item[toyView, string]) error {
			fl.mu.Lock()
			fl.items = append(fl.items, kept(it))
			fl.mu.Unlock()
			select {
			case fl.more <- struct{}{}:
			default:
			}
			return nil
		})
	}()
	f.t.Cleanup(func() { cancel(); <-fl.ended })
	return fl
}

// waitFor waits until the stream holds an event whose body or notice
// matches; the time limit only bounds a broken test.
func (fl *follower) waitFor(t *testing.T, match func(host.Item[toyView, string]) bool) host.Item[toyView, string] {
	t.Helper()
	limit := time.After(10 * time.Second)
	for {
		fl.mu.Lock()
		for _, it := range fl.items {
			if match(it) {
				fl.mu.Unlock()
				return it
			}
		}
		fl.mu.Unlock()
		select {
		case <-fl.more:
		case <-limit:
			t.Fatalf("no matching item in %v", fl.bodies())
		}
	}
}

func (fl *follower) snapshot() []host.Item[toyView, string] {
	fl.mu.Lock()
	defer fl.mu.Unlock()
	return slices.Clone(fl.items)
}

func (fl *follower) bodies() []string {
	var out []string
	for _, it := range fl.snapshot() {
		out = append(out, describe(it))
	}
	return out
}

func describe(it host.Item[toyView, string]) string {
	switch {
	case it.Snapshot != nil:
		return fmt.Sprintf("snapshot@%d", it.Snapshot.Seq)
	case it.Event.Notice != nil:
		return fmt.Sprintf("%d:%s/%d", it.Event.Seq, it.Event.Notice.Kind, it.Event.Notice.Seat)
	}
	return fmt.Sprintf("%d:%s", it.Event.Seq, it.Event.Body)
}

func body(s string) func(host.Item[toyView, string]) bool {
	return func(it host.Item[toyView, string]) bool {
		return it.Event != nil && it.Event.Notice == nil && it.Event.Body == s
	}
}

func notice(k host.NoticeKind, seat int) func(host.Item[toyView, string]) bool {
	return func(it host.Item[toyView, string]) bool {
		return it.Event != nil && it.Event.Notice != nil && it.Event.Notice.Kind == k && it.Event.Notice.Seat == seat
	}
}

func TestJoinAutoStartAndPrivateEvents(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	early := f.follow(0, 0) // before joining: no token yet
	if err := early.wait(); !errors.Is(err, host.ErrMissingToken) {
		t.Fatalf("Follow without token = %v, want ErrMissingToken", err)
	}
	f.join(4)
	if got := f.info().State; got != host.Playing {
		t.Fatalf("state after four joins = %v, want playing", got)
	}
	streams := make([]*follower, 4)
	for s := range 4 {
		streams[s] = f.follow(s, 0)
	}
	for s, fl := range streams {
		fl.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
		items := fl.snapshot()
		if snap := items[0].Snapshot; snap == nil || snap.View.Secret != secret(1, s) || snap.View.Seat != s {
			t.Fatalf("seat %d first item = %+v, want a snapshot with its secret", s, items[0])
		}
	}
	// Seat 0 plays; seat 2 gets the offer privately.
	seq, err := f.act(0, "a", seqOf(t, f, 0), toyAction{Seat: 0, Kind: "play", N: 2})
	if err != nil {
		t.Fatalf("Act: %v", err)
	}
	streams[2].waitFor(t, body("offer"))
	if got := streams[0].waitFor(t, body("play 0 2")); got.Event.Seq != seq {
		t.Fatalf("seat 0's play is its event %d, Act answered %d", got.Event.Seq, seq)
	}
	for s, fl := range streams {
		fl.waitFor(t, body("play 0 2"))
		items := fl.snapshot()
		next := items[0].Snapshot.Seq + 1
		for _, it := range items[1:] {
			if it.Event.Seq != next {
				t.Fatalf("seat %d: event %s after seq %d, want %d (each seat's numbers have no gaps)", s, describe(it), next-1, next)
			}
			next++
			if !it.Event.To.Sees(s) {
				t.Fatalf("seat %d received %s meant for %+v", s, describe(it), it.Event.To)
			}
			if strings.HasPrefix(it.Event.Body, "secret") && it.Event.Body != fmt.Sprintf("secret %d", secret(1, s)) {
				t.Fatalf("seat %d received another seat's %q", s, it.Event.Body)
			}
		}
	}
}

// TestResume checks that a stream resumed after any seq delivers exactly
// the rest of what a stream from the start delivers.
func TestResume(t *testing.T) {
	f := newFixture(t, defaultSettings, 3, host.Config[toyAction, toyView, string]{})
	f.join(1)
	full := f.follow(0, 0)
	full.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	seat, tok, err := f.h.Join(context.Background(), f.id, "p1", nil)
	if err != nil || seat != 1 {
		t.Fatalf("Join = %d, %v", seat, err)
	}
	f.tokens[1] = tok
	for i := 2; i < 4; i++ {
		_, f.tokens[i], _ = f.h.Join(context.Background(), f.id, "p", nil)
	}
	play(t, f)
	if err := full.wait(); err != nil {
		t.Fatalf("Follow to the end of the game = %v, want nil", err)
	}
	all := full.snapshot()
	if all[0].Snapshot == nil || all[0].Snapshot.Seq != 1 {
		t.Fatalf("first item %s, want the snapshot at 1", describe(all[0]))
	}
	last := all[0].Snapshot.Seq
	for _, it := range all[1:] {
		if it.Event.Seq != last+1 {
			t.Fatalf("seq %d after %d, want %d", it.Event.Seq, last, last+1)
		}
		last = it.Event.Seq
	}
	head := last
	// Resuming after any k gives exactly the events above k.
	for k := uint64(1); k <= head; k++ {
		r := f.follow(0, k)
		if err := r.wait(); err != nil {
			t.Fatalf("Follow(after %d) = %v", k, err)
		}
		var got, want []string
		for _, it := range r.snapshot() {
			got = append(got, describe(it))
		}
		for _, it := range all[1:] {
			if it.Event.Seq > k {
				want = append(want, describe(it))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Follow(after %d) = %v, want %v", k, got, want)
		}
	}
	if r := f.follow(0, head+1); !errors.Is(r.wait(), host.ErrSeqAhead) {
		t.Fatal("Follow past the head did not fail with ErrSeqAhead")
	}
}

// play plays the game to the end with the seats' own tokens: each plays 2
// and passes every offer. While a claim dwell holds the table, the clock
// moves on.
func play(t *testing.T, f *fixture, seats ...int) {
	t.Helper()
	if len(seats) == 0 {
		seats = []int{0, 1, 2, 3}
	}
	for i := 0; f.info().State == host.Playing; i++ {
		if i > 1000 {
			t.Fatal("game does not end")
		}
		acted, held := false, false
		for _, s := range seats {
			for _, a := range []toyAction{{Seat: s, Kind: "play", N: 2}, {Seat: s, Kind: "pass"}} {
				_, err := f.act(s, fmt.Sprint("r", i, s, a.Kind), f.seq(s), a)
				if err == nil {
					acted = true
					break
				}
				held = held || errors.Is(err, host.ErrWindowOpen)
			}
			if acted {
				break
			}
		}
		switch {
		case held && !acted:
			f.clk.Advance(time.Second)
		case !acted && f.info().State == host.Playing:
			t.Fatalf("nobody could act in %+v", f.info())
		}
	}
}

// seqOf is a seat's newest seq. (A new stream's snapshot is numbered
// before the seat's standing offer, so it is not always the newest.)
func seqOf(t *testing.T, f *fixture, seat int) uint64 {
	t.Helper()
	n, err := f.h.SeatSeq(context.Background(), f.id, f.tokens[seat])
	if err != nil {
		t.Fatalf("SeatSeq: %v", err)
	}
	return n
}

func snapshotOf(t *testing.T, f *fixture, seat int) *host.Snapshot[toyView] {
	t.Helper()
	fl := f.follow(seat, 0)
	it := fl.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	fl.stop()
	fl.wait()
	return it.Snapshot
}

func viewOf(t *testing.T, f *fixture, seat int) toyView {
	t.Helper()
	return snapshotOf(t, f, seat).View
}

func TestTokens(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	other := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	other.join(1)
	a := toyAction{Seat: 0, Kind: "play", N: 1}
	head := f.info().LastSeq
	for _, tc := range []struct {
		token string
		want  error
	}{
		{"", host.ErrMissingToken},
		{"not-a-token", host.ErrWrongToken},
		{other.tokens[0], host.ErrWrongToken},
		{f.owner, host.ErrWrongToken}, // the owner token does not play a seat
	} {
		_, err := f.h.Act(context.Background(), f.id, host.Request[toyAction]{Token: tc.token, LastSeq: head, RequestID: "x", Action: a})
		if !errors.Is(err, tc.want) {
			t.Errorf("Act(token %q) = %v, want %v", tc.token, err, tc.want)
		}
	}
	if got := f.info().LastSeq; got != head {
		t.Fatalf("refused requests moved the log from %d to %d", head, got)
	}
	if _, err := f.h.Act(context.Background(), "nope", host.Request[toyAction]{Token: f.tokens[0], RequestID: "x", Action: a}); !errors.Is(err, host.ErrNotFound) {
		t.Fatalf("Act(unknown table) = %v, want ErrNotFound", err)
	}
}

func TestDedupeAndStaleSeq(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	head := seqOf(t, f, 0)
	head2 := seqOf(t, f, 2)
	a := toyAction{Seat: 0, Kind: "play", N: 2}
	seq1, err := f.act(0, "req-1", head, a)
	if err != nil {
		t.Fatalf("Act: %v", err)
	}
	seq2, err := f.act(0, "req-1", head, a)
	if err != nil || seq2 != seq1 {
		t.Fatalf("retried Act = %d, %v, want %d, nil", seq2, err, seq1)
	}
	if v := viewOf(t, f, 0); v.Total != 2 {
		t.Fatalf("total after a retried play of 2 = %d, want 2 (applied once)", v.Total)
	}
	if _, err := f.act(0, "req-1", head, toyAction{Seat: 0, Kind: "play", N: 3}); !errors.Is(err, host.ErrRequestIDReused) {
		t.Fatalf("Act(reused id, other action) = %v, want ErrRequestIDReused", err)
	}
	// Seat 2 holds the claim offer (its play and offer events), but decides
	// on the view before the play.
	before, before1, public := seqOf(t, f, 2), seqOf(t, f, 1), f.info().LastSeq
	if before != head2+2 {
		t.Fatalf("seat 2 at %d after the play, want %d (play, offer)", before, head2+2)
	}
	_, err = f.act(2, "c", head2, toyAction{Seat: 2, Kind: "claim"})
	var stale *host.StaleSeqError
	if !errors.As(err, &stale) || !errors.Is(err, host.ErrStaleSeq) || stale.Newest != before {
		t.Fatalf("Act(stale) = %v, want a StaleSeqError with newest %d", err, before)
	}
	if _, err := f.act(2, "c2", before+1, toyAction{Seat: 2, Kind: "claim"}); !errors.Is(err, host.ErrSeqAhead) {
		t.Fatalf("Act(seq ahead) = %v, want ErrSeqAhead", err)
	}
	// A refused illegal action: seat 1 may not claim.
	if _, err := f.act(1, "d", before1, toyAction{Seat: 1, Kind: "claim"}); !errors.Is(err, errToy) {
		t.Fatalf("Act(illegal) = %v, want the game's error", err)
	}
	if got := f.info().LastSeq; got != public {
		t.Fatalf("refused actions moved the log from %d to %d", public, got)
	}
	// The same request id answers the same refusal again.
	if _, err := f.act(1, "d", before1, toyAction{Seat: 1, Kind: "claim"}); !errors.Is(err, errToy) {
		t.Fatalf("retried illegal Act = %v, want the same refusal", err)
	}
	if _, err := f.act(2, "c3", before, toyAction{Seat: 2, Kind: "claim"}); err != nil {
		t.Fatalf("Act(claim, fresh seq) = %v", err)
	}
	if v := viewOf(t, f, 0); v.Turn != 2 {
		t.Fatalf("turn after seat 2's claim = %d, want 2", v.Turn)
	}
	// A refusal retried after the table moved on is the very refusal it
	// was, not a new one.
	_, again := f.act(2, "c", head2, toyAction{Seat: 2, Kind: "claim"})
	if again == nil || again.Error() != err.Error() || !errors.As(again, &stale) || stale.Newest != before {
		t.Fatalf("retried stale Act = %v, want %v", again, err)
	}
}

func TestTimers(t *testing.T) {
	s := defaultSettings
	s.TurnTime, s.ClaimTime = 10*time.Second, 3*time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	st0, st2 := f.follow(0, 0), f.follow(2, 0)
	isSnap := func(it host.Item[toyView, string]) bool { return it.Snapshot != nil }
	st0.waitFor(t, isSnap)
	st2.waitFor(t, isSnap)
	f.clk.Advance(9 * time.Second)
	if got := viewOf(t, f, 0); got.Total != 0 {
		t.Fatalf("total before the turn time = %d, want 0", got.Total)
	}
	f.clk.Advance(time.Second)
	st0.waitFor(t, body("play 0 1"))
	st0.waitFor(t, notice(host.NoticeTimedOut, 0))
	// The claim window of seat 2 closes after the claim time, privately.
	st2.waitFor(t, body("offer"))
	f.clk.Advance(3 * time.Second)
	st2.waitFor(t, notice(host.NoticeTimedOut, 2))
	for _, it := range st0.snapshot() {
		if it.Event != nil && it.Event.Notice != nil && it.Event.Notice.Seat == 2 {
			t.Fatalf("seat 0 saw seat 2's timeout: %s", describe(it))
		}
	}
	// Seat 1's turn now, its timer started when the window closed.
	f.clk.Advance(9 * time.Second)
	if got := viewOf(t, f, 1); got.Turn != 1 || got.Total != 1 {
		t.Fatalf("view before seat 1's time = %+v, want turn 1, total 1", got)
	}
	f.clk.Advance(time.Second)
	st0.waitFor(t, body("play 1 1"))
}

// TestSnapshotTimeLeft: a stream opened in the middle of a seat's turn
// says how long the seat has left; the other seats, whom no timer waits
// for, and a table without timers say nothing.
func TestSnapshotTimeLeft(t *testing.T) {
	s := defaultSettings
	s.TurnTime = 10 * time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	isSnap := func(it host.Item[toyView, string]) bool { return it.Snapshot != nil }
	f.follow(0, 0).waitFor(t, isSnap) // the table has started
	f.clk.Advance(4 * time.Second)
	for seat, want := range []time.Duration{6 * time.Second, 0, 0, 0} {
		if got := f.follow(seat, 0).waitFor(t, isSnap).Snapshot.Left; got != want {
			t.Errorf("seat %d's snapshot 4s into seat 0's turn: %v left, want %v", seat, got, want)
		}
	}
	untimed := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	untimed.join(4)
	if got := untimed.follow(0, 0).waitFor(t, isSnap).Snapshot.Left; got != 0 {
		t.Errorf("no turn time: %v left", got)
	}
}

func TestBotsFillAndGraceTakeover(t *testing.T) {
	s := defaultSettings
	s.FillWithBots, s.DisconnectGrace = true, 30*time.Second
	f := newFixture(t, s, 2, host.Config[toyAction, toyView, string]{Bot: func() host.Bot[toyAction, toyView] { return maxBot{} }})
	f.join(2)
	if err := f.h.Start(context.Background(), f.id, "bad"); !errors.Is(err, host.ErrWrongToken) {
		t.Fatalf("Start(bad token) = %v, want ErrWrongToken", err)
	}
	fl1 := f.follow(1, 0)
	fl1.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	if err := f.h.Start(context.Background(), f.id, f.owner); err != nil {
		t.Fatalf("Start: %v", err)
	}
	in := f.info()
	for i, seat := range in.Seats {
		if want := i >= 2; seat.Bot != want {
			t.Fatalf("seat %d bot = %v, want %v", i, seat.Bot, want)
		}
	}
	// Seat 0 (to play first) has no stream: nothing happens until the
	// grace period ends, then a bot plays it.
	f.clk.Advance(29 * time.Second)
	if v := viewOf(t, f, 1); v.Total != 0 {
		t.Fatalf("total before the grace period ended = %d, want 0", v.Total)
	}
	// viewOf opened and closed a stream of seat 1: its grace restarted, but
	// fl1 is still open, so seat 1 stays a player.
	f.clk.Advance(time.Second)
	fl1.waitFor(t, notice(host.NoticeBotTookOver, 0))
	fl1.waitFor(t, body("play 0 3")) // maxBot, not the default 1
	fl0 := f.follow(0, 0)
	fl1.waitFor(t, notice(host.NoticePlayerReturned, 0))
	fl0.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	if f.info().Seats[0].Bot || f.info().Seats[1].Bot {
		t.Fatalf("seats 0 and 1 should be players: %+v", f.info().Seats)
	}
	play(t, f, 0, 1)
	if err := fl0.wait(); err != nil {
		t.Fatalf("stream end = %v, want nil at game over", err)
	}
	if f.info().State != host.Finished {
		t.Fatalf("state = %v, want finished", f.info().State)
	}
}

func TestLeave(t *testing.T) {
	s := defaultSettings
	s.FillWithBots = true
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(2)
	old := f.follow(1, 0)
	old.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	if err := f.h.Leave(context.Background(), f.id, f.tokens[1]); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	// The leaver's stream ends: the seat's next player's secrets are not
	// its to see.
	if err := old.wait(); !errors.Is(err, host.ErrWrongToken) {
		t.Fatalf("stream of a seat that left ended with %v, want ErrWrongToken", err)
	}
	if in := f.info(); in.Seats[1].Taken {
		t.Fatal("seat 1 still taken after leaving before the start")
	}
	if _, err := f.act(1, "x", 0, toyAction{}); !errors.Is(err, host.ErrWrongToken) {
		t.Fatalf("Act with a left seat's token = %v, want ErrWrongToken", err)
	}
	seat, tok, err := f.h.Join(context.Background(), f.id, "again", nil)
	if err != nil || seat != 1 {
		t.Fatalf("Join after leave = %d, %v, want seat 1", seat, err)
	}
	f.tokens[1] = tok
	if err := f.h.Start(context.Background(), f.id, f.tokens[0]); err != nil {
		t.Fatalf("Start by a seat: %v", err)
	}
	if err := f.h.Start(context.Background(), f.id, f.owner); !errors.Is(err, host.ErrAlreadyStarted) {
		t.Fatalf("second Start = %v, want ErrAlreadyStarted", err)
	}
	if _, _, err := f.h.Join(context.Background(), f.id, "late", nil); !errors.Is(err, host.ErrAlreadyStarted) {
		t.Fatalf("Join after the start = %v, want ErrAlreadyStarted", err)
	}
	// Leaving after the start hands the seat to a bot for good.
	st0 := f.follow(0, 0)
	st0.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	if err := f.h.Leave(context.Background(), f.id, f.tokens[0]); err != nil {
		t.Fatalf("Leave after start: %v", err)
	}
	if err := st0.wait(); !errors.Is(err, host.ErrWrongToken) {
		t.Fatalf("stream of a seat that left ended with %v, want ErrWrongToken", err)
	}
	if in := f.info(); !in.Seats[0].Bot {
		t.Fatal("seat 0 not a bot after leaving")
	}
}

func TestStartNeedsSeats(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(3)
	if err := f.h.Start(context.Background(), f.id, f.owner); !errors.Is(err, host.ErrSeatsEmpty) {
		t.Fatalf("Start with an empty seat = %v, want ErrSeatsEmpty", err)
	}
	if _, err := f.act(0, "x", 0, toyAction{Seat: 0, Kind: "play", N: 1}); !errors.Is(err, host.ErrNotStarted) {
		t.Fatalf("Act before the start = %v, want ErrNotStarted", err)
	}
}

func TestRateLimit(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{SeatRate: host.Rate{PerSecond: 1, Burst: 2}})
	f.join(4)
	bad := toyAction{Seat: 1, Kind: "play", N: 1} // not seat 1's turn
	for i := range 2 {
		if _, err := f.act(1, fmt.Sprint(i), seqOf(t, f, 1), bad); !errors.Is(err, errToy) {
			t.Fatalf("Act %d = %v, want the game's refusal", i, err)
		}
	}
	_, err := f.act(1, "2", seqOf(t, f, 1), bad)
	if !errors.Is(err, host.ErrRateLimited) {
		t.Fatalf("third Act within a second = %v, want ErrRateLimited", err)
	}
	// The refusal says how long until the request is taken, and where the
	// table is.
	var rl *host.RateLimitedError
	if !errors.As(err, &rl) || rl.Wait != time.Second {
		t.Fatalf("third Act = %v, want a RateLimitedError of 1s", err)
	}
	var se *host.StateError
	if !errors.As(err, &se) || se.State != host.Playing {
		t.Fatalf("third Act = %v, want a StateError of a playing table", err)
	}
	// Other seats have their own budget.
	if _, err := f.act(0, "a", seqOf(t, f, 0), toyAction{Seat: 0, Kind: "play", N: 1}); err != nil {
		t.Fatalf("seat 0 Act = %v", err)
	}
	f.clk.Advance(time.Second)
	if _, err := f.act(1, "3", seqOf(t, f, 1), bad); !errors.Is(err, errToy) {
		t.Fatalf("Act after a second = %v, want the game's refusal", err)
	}
}

func TestStoreFailureLeavesTableUnchanged(t *testing.T) {
	f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	head, public := seqOf(t, f, 0), f.info().LastSeq
	entries := len(f.store.Entries(f.id))
	f.store.SetFail(func() error { return errors.New("disk full") })
	if _, err := f.act(0, "a", head, toyAction{Seat: 0, Kind: "play", N: 3}); !errors.Is(err, host.ErrUnavailable) {
		t.Fatalf("Act with a failing store = %v, want ErrUnavailable", err)
	}
	if got := f.info().LastSeq; got != public {
		t.Fatalf("log moved from %d to %d", public, got)
	}
	if got := seqOf(t, f, 0); got != head {
		t.Fatalf("seat 0's events moved from %d to %d", head, got)
	}
	f.store.SetFail(nil)
	if v := viewOf(t, f, 0); v.Total != 0 {
		t.Fatalf("total after a refused write = %d, want 0", v.Total)
	}
	// The same request id is not remembered as refused: the retry applies.
	if _, err := f.act(0, "a", head, toyAction{Seat: 0, Kind: "play", N: 3}); err != nil {
		t.Fatalf("retry after the store recovered: %v", err)
	}
	if v := viewOf(t, f, 0); v.Total != 3 {
		t.Fatalf("total after the retry = %d, want 3", v.Total)
	}
	if got := len(f.store.Entries(f.id)); got <= entries {
		t.Fatalf("store has %d entries, had %d", got, entries)
	}
}

// TestSlowStreamDoesNotBlock holds a stream's send while the table plays on,
// then lets it catch up: it must get every event once, in order.
func TestSlowStreamDoesNotBlock(t *testing.T) {
	f := newFixture(t, defaultSettings, 3, host.Config[toyAction, toyView, string]{})
	f.join(4)
	release := make(chan struct{})
	started := make(chan struct{})
	var got []uint64
	done := make(chan error, 1)
	go func() {
		first := true
		done <- f.h.Follow(context.Background(), f.id, f.tokens[3], 0, func(it host.Item[toyView, string]) error {
			if first {
				// The snapshot: the stream is attached before play starts,
				// so it must see the game's events after it.
				first = false
				close(started)
			}
			if it.Event != nil {
				got = append(got, it.Event.Seq)
				if len(got) == 1 {
					<-release
				}
			}
			return nil
		})
	}()
	<-started
	play(t, f) // would hang if the held stream blocked the table
	close(release)
	if err := <-done; err != nil {
		t.Fatalf("Follow = %v", err)
	}
	for i := 1; i < len(got); i++ {
		if got[i] != got[i-1]+1 {
			t.Fatalf("seqs not contiguous: %v", got)
		}
	}
	if len(got) == 0 {
		t.Fatal("no events")
	}
}

func TestSpectatorDelayAndPublicOnly(t *testing.T) {
	s := defaultSettings
	s.SpectatorDelay = 5 * time.Second
	f := newFixture(t, s, 1, host.Config[toyAction, toyView, string]{})
	f.join(4)
	var mu sync.Mutex
	var seen []string
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	got := make(chan struct{}, 100)
	go func() {
		done <- f.h.Watch(ctx, f.id, 0, func(e *host.Event[string]) error {
			if e.To.Private {
				t.Errorf("spectator got private event %d", e.Seq)
			}
			mu.Lock()
			seen = append(seen, e.Body)
			mu.Unlock()
			got <- struct{}{}
			return nil
		})
	}()
	defer func() { cancel(); <-done }()
	// Until the delay passes, nothing. Wait for the watcher to park on the
	// fake clock before checking.
	if !f.clk.WaitPending(1, 10*time.Second) {
		t.Fatal("the spectator stream armed no timer")
	}
	mu.Lock()
	if len(seen) != 0 {
		t.Fatalf("spectator saw %v before the delay", seen)
	}
	mu.Unlock()
	f.clk.Advance(5 * time.Second)
	for {
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("spectator got nothing after the delay")
		}
		mu.Lock()
		ok := slices.Contains(seen, "round 1")
		for _, b := range seen {
			if strings.HasPrefix(b, "secret") {
				t.Fatalf("spectator saw %q", b)
			}
		}
		mu.Unlock()
		if ok {
			return
		}
	}
}

// TestDedupeWindowBoundary: a seat's window holds the answers to its
// latest 256 request ids, refusals with their very error: the 256th
// newest id is answered again as it was, and refused for another action
// (ErrRequestIDReused); the 257th newest is forgotten, so the same id
// with another action is a new request, taken. With a Codec (the
// actions' digests of the encoding) and without (maphash's).
func TestDedupeWindowBoundary(t *testing.T) {
	for _, codec := range []host.Codec[toyAction, string]{nil, toyCodec{}} {
		t.Run(fmt.Sprintf("codec %T", codec), func(t *testing.T) {
			f := newFixture(t, defaultSettings, 1, host.Config[toyAction, toyView, string]{Codec: codec})
			f.join(4)
			head := seqOf(t, f, 0)
			const sent = 300
			errs := make([]error, sent)
			for i := range sent {
				// Illegal plays, each refused by the game and remembered.
				if _, errs[i] = f.act(0, fmt.Sprint("r", i), head, toyAction{Seat: 0, Kind: "play", N: 4 + i}); !errors.Is(errs[i], errToy) {
					t.Fatalf("play of %d = %v, want the game's refusal", 4+i, errs[i])
				}
			}
			oldest := sent - 256
			for i := oldest; i < sent; i++ {
				_, err := f.act(0, fmt.Sprint("r", i), head, toyAction{Seat: 0, Kind: "play", N: 4 + i})
				if err == nil || err.Error() != errs[i].Error() {
					t.Fatalf("retried r%d = %v, want %v", i, err, errs[i])
				}
			}
			if _, err := f.act(0, fmt.Sprint("r", oldest), head, toyAction{Seat: 0, Kind: "play", N: 1}); !errors.Is(err, host.ErrRequestIDReused) {
				t.Fatalf("r%d (held) for another action = %v, want ErrRequestIDReused", oldest, err)
			}
			if _, err := f.act(0, fmt.Sprint("r", oldest-1), head, toyAction{Seat: 0, Kind: "play", N: 1}); err != nil {
				t.Fatalf("r%d (forgotten) for another action = %v, want it taken", oldest-1, err)
			}
			if v := viewOf(t, f, 0); v.Total != 1 {
				t.Fatalf("total %d, want 1", v.Total)
			}
		})
	}
}
