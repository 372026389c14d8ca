package host_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// lifeSettings play a table of one player (seat 0) and three bots, the
// player's turns played by its turn timer.
var lifeSettings = host.Settings{Seats: 4, TurnTime: time.Second, ClaimTime: time.Second, FillWithBots: true}

const lifeRounds = 2

// lifeHost is a host with the lifecycle of cfg on store st, a fake clock
// and observed logs.
func lifeHost(t *testing.T, st *host.MemoryStore[toyAction], now time.Time, cfg host.Config[toyAction, toyView, string]) (*toyHost, *clock.Fake, *observer.ObservedLogs) {
	t.Helper()
	core, logs := observer.New(zapcore.InfoLevel)
	clk := clock.NewFake(now)
	cfg.Clock, cfg.Store, cfg.Log = clk, st, zap.New(core)
	if cfg.Bot == nil {
		cfg.Bot = func() host.Bot[toyAction, toyView] { return maxBot{} }
	}
	h := host.New(cfg)
	t.Cleanup(h.Close)
	return h, clk, logs
}

// fixtureOn makes a table with settings s on h and takes the first n
// seats.
func fixtureOn(t *testing.T, h *toyHost, clk *clock.Fake, st *host.MemoryStore[toyAction], s host.Settings, n int) *fixture {
	t.Helper()
	f := &fixture{t: t, clk: clk, store: st, h: h}
	info, owner, err := h.Create(context.Background(), s, []byte("meta"), newToy(lifeRounds))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	f.id, f.owner = info.ID, owner
	f.join(n)
	return f
}

// startAndFinish starts the table and moves the clock, a second at a time,
// until its game is over; seat 0 plays once by request id "r..." (the
// first such request the table takes). It returns the accepted request's
// id and answer.
func (f *fixture) startAndFinish() (string, uint64) {
	f.t.Helper()
	if err := f.h.Start(context.Background(), f.id, f.owner); err != nil {
		f.t.Fatalf("Start: %v", err)
	}
	var id string
	var seq uint64
	for i := 0; f.info().State != host.Finished; i++ {
		if i > 10000 {
			f.t.Fatal("the game does not end")
		}
		if id == "" {
			r := fmt.Sprint("r", i)
			if n, err := f.act(0, r, f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2}); err == nil {
				id, seq = r, n
				continue
			}
		}
		f.advance(time.Second)
	}
	if id == "" {
		f.t.Fatal("seat 0 never played")
	}
	return id, seq
}

// advance moves the clock and waits until the table's goroutine has done
// what came due: a timer posts its work to the table, so a request that
// follows it is answered after it.
func (f *fixture) advance(d time.Duration) {
	f.clk.Advance(d)
	_ = f.h.Inspect(context.Background(), f.id, func(host.Game[toyAction, toyView, string]) error { return nil })
}

// watch is a stream followed in the background; its sends wait for gate
// (a slow client) until it is closed.
type watch struct {
	once  sync.Once
	gate  chan struct{}
	first chan struct{} // closed when the stream sends its first item
	sent  sync.Once
	evs   []string
	err   error
	done  chan struct{}
}

func newWatch(t *testing.T, open bool, run func(ctx context.Context, send func(string) error) error) *watch {
	ctx, cancel := context.WithCancel(context.Background())
	w := &watch{gate: make(chan struct{}), first: make(chan struct{}), done: make(chan struct{})}
	if open {
		w.release()
	}
	go func() {
		defer close(w.done)
		w.err = run(ctx, func(s string) error {
			w.sent.Do(func() { close(w.first) })
			<-w.gate
			w.evs = append(w.evs, s)
			return nil
		})
	}()
	t.Cleanup(func() { cancel(); w.release(); <-w.done })
	return w
}

// started waits until the stream sends its first item: it is open.
func (w *watch) started(t *testing.T) {
	t.Helper()
	select {
	case <-w.first:
	case <-w.done:
		select {
		case <-w.first:
		default:
			t.Fatalf("the stream ended before it sent anything: %v", w.err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the stream sent nothing in 10s")
	}
}

// release opens the gate.
func (w *watch) release() { w.once.Do(func() { close(w.gate) }) }

// watchTable follows a table as a spectator.
func watchTable(t *testing.T, h *toyHost, id string, after uint64) *watch {
	return newWatch(t, true, func(ctx context.Context, send func(string) error) error {
		return h.Watch(ctx, id, after, func(e *host.Event[string]) error {
			return send(describe(host.Item[toyView, string]{Event: e}))
		})
	})
}

// slowSeat follows a seat whose client reads nothing until its gate opens.
func slowSeat(t *testing.T, f *fixture, seat int) *watch {
	return newWatch(t, false, func(ctx context.Context, send func(string) error) error {
		return f.h.Follow(ctx, f.id, f.tokens[seat], 0, func(it host.Item[toyView, string]) error { return send(describe(it)) })
	})
}

// wait waits for the stream to end; the limit only bounds a broken test.
func (w *watch) wait(t *testing.T) ([]string, error) {
	t.Helper()
	select {
	case <-w.done:
		return w.evs, w.err
	case <-time.After(10 * time.Second):
		t.Fatal("the spectator stream did not end")
		return nil, nil
	}
}

func wantEvicted(t *testing.T, what string, err error, reason host.Eviction) {
	t.Helper()
	var ev *host.EvictedError
	if !errors.As(err, &ev) || ev.Reason != reason || !errors.Is(err, host.ErrNotFound) || !errors.Is(err, host.ErrEvicted) {
		t.Fatalf("%s = %v, want an EvictedError (%v) matching ErrNotFound", what, err, reason)
	}
}

// TestFinishedTableLeavesMemory plays a game on a host whose store keeps
// nothing after eviction: the table stays for FinishedTTL after its game
// ended, to the nanosecond, then leaves memory - its timers stop, the
// store forgets it, a request for it says why it is gone - while the
// stream of a seat whose client was too slow to read anything still gets
// the whole game to its end. The eviction is logged.
func TestFinishedTableLeavesMemory(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	h, clk, logs := lifeHost(t, st, time.Unix(1_700_000_000, 0), host.Config[toyAction, toyView, string]{
		FinishedTTL: 10 * time.Minute, IdleTTL: time.Hour, ForgetEvicted: true,
	})
	f := fixtureOn(t, h, clk, st, lifeSettings, 1)
	slow := slowSeat(t, f, 0)
	slow.started(t) // the stream is open, its client reads nothing
	if !f.info().Seats[0].Connected {
		t.Fatal("seat 0 is not connected with its stream open")
	}
	f.startAndFinish()
	ended, ok := st.Finished(f.id)
	if !ok {
		t.Fatal("the store was not told the game ended")
	}
	want := seqOf(t, f, 0)

	f.advance(ended.Add(10*time.Minute - time.Nanosecond).Sub(clk.Now()))
	if in := f.info(); in.State != host.Finished {
		t.Fatalf("table %v just before its finished TTL, want finished", in.State)
	}
	if page, _ := h.List(host.ListQuery{}); len(page) != 1 {
		t.Fatalf("List before eviction = %d tables, want 1", len(page))
	}
	f.advance(time.Nanosecond)

	_, err := h.Get(context.Background(), f.id)
	wantEvicted(t, "Get(evicted table)", err, host.EvictFinished)
	var ev *host.EvictedError
	if errors.As(err, &ev); !ev.At.Equal(ended.Add(10*time.Minute)) || ev.After != 10*time.Minute {
		t.Errorf("evicted at %v after %v, want %v after 10m", ev.At, ev.After, ended.Add(10*time.Minute))
	}
	_, _, err = h.Join(context.Background(), f.id, "late", nil)
	wantEvicted(t, "Join(evicted table)", err, host.EvictFinished)
	err = h.Inspect(context.Background(), f.id, func(host.Game[toyAction, toyView, string]) error { return nil })
	wantEvicted(t, "Inspect(evicted table)", err, host.EvictFinished)
	if page, more := h.List(host.ListQuery{}); len(page) != 0 || more {
		t.Errorf("List after eviction = %d tables (more %v), want none", len(page), more)
	}
	if ids := st.Tables(); len(ids) != 0 {
		t.Errorf("the store still holds %v", ids)
	}
	if n := clk.Pending(); n != 0 {
		t.Errorf("%d timers pending after eviction, want none", n)
	}

	slow.release()
	evs, err := slow.wait(t)
	var from uint64
	if len(evs) > 0 {
		fmt.Sscanf(evs[0], "snapshot@%d", &from)
	}
	if err != nil || from == 0 || uint64(len(evs)) != 1+want-from || evs[len(evs)-1] != fmt.Sprintf("%d:over", want) {
		t.Fatalf("the slow seat got %v, ended with %v; want a snapshot and every event after it to %d:over, then nil", evs, err, want)
	}

	entries := logs.FilterMessage("table evicted").All()
	if len(entries) != 1 {
		t.Fatalf("%d eviction logs, want 1", len(entries))
	}
	fields := entries[0].ContextMap()
	if fields["table"] != f.id || fields["reason"] != "finished" || fields["stored"] != false || fields["tables_held"] != int64(0) ||
		fields["ttl"] != 10*time.Minute || fields["seat_streams"] != int64(1) {
		t.Errorf("eviction logged with %v", fields)
	}
}

// TestSpectatorOutlivesEviction evicts a finished table of bots while a
// spectator waits out its delay: the spectator still gets the whole game
// at its delayed times, then the end of its stream.
func TestSpectatorOutlivesEviction(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	h, clk, _ := lifeHost(t, st, time.Unix(1_700_000_000, 0), host.Config[toyAction, toyView, string]{
		FinishedTTL: 10 * time.Minute, ForgetEvicted: true,
	})
	f := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true, SpectatorDelay: 15 * time.Minute}, 0)
	spec := watchTable(t, h, f.id, 0)
	if err := h.Start(context.Background(), f.id, f.owner); err != nil {
		t.Fatal(err)
	}
	// The whole game happened now; the spectator waits on the clock.
	public := f.info().LastSeq
	waitPending(t, clk, 2) // the eviction's timer and the spectator's
	f.advance(10 * time.Minute)
	if _, err := h.Get(context.Background(), f.id); !errors.Is(err, host.ErrEvicted) {
		t.Fatalf("Get = %v, want ErrEvicted", err)
	}
	select {
	case <-spec.done:
		t.Fatalf("the spectator stream ended before its delay: %v", spec.err)
	default:
	}
	clk.Advance(5 * time.Minute)
	evs, err := spec.wait(t)
	if err != nil || uint64(len(evs)) != public || evs[len(evs)-1] != fmt.Sprintf("%d:over", public) {
		t.Fatalf("spectator got %d of %d events (last %v), ended with %v; want all, then nil", len(evs), public, evs[len(evs)-1:], err)
	}
}

// waitPending waits until n timers are pending on the clock: until the
// goroutines that arm them got there.
func waitPending(t *testing.T, clk *clock.Fake, n int) {
	t.Helper()
	if !clk.WaitPending(n, 10*time.Second) {
		t.Fatalf("%d timers pending after 10s, want %d", clk.Pending(), n)
	}
}

// TestFinishedTableReadBack evicts a finished table whose store keeps it:
// every request about it reads it back from the store (from its final
// snapshot) and answers as the table did in memory - its description, the
// spectators' and the seat's streams, a retried request id, refusals of
// changes - without holding it in memory again. A restart leaves it in the
// store, and it is still read back.
func TestFinishedTableReadBack(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	gameFor := func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return newToy(lifeRounds), nil
	}
	cfg := host.Config[toyAction, toyView, string]{FinishedTTL: 10 * time.Minute, GameFor: gameFor, Codec: toyCodec{}}
	h, clk, _ := lifeHost(t, st, time.Unix(1_700_000_000, 0), cfg)
	f := fixtureOn(t, h, clk, st, lifeSettings, 1)
	reqID, reqSeq := f.startAndFinish()
	if _, ok := st.Finished(f.id); !ok {
		t.Fatal("the store was not told the game ended")
	}
	before := f.info()
	ctx := context.Background()
	wantStreams := func(what string) {
		t.Helper()
		spec, err := watchTable(t, h, f.id, 0).wait(t)
		if err != nil || uint64(len(spec)) != before.LastSeq {
			t.Fatalf("%s: spectator got %d of %d events, %v", what, len(spec), before.LastSeq, err)
		}
		seat := f.follow(0, 0)
		if err := seat.wait(); err != nil {
			t.Fatalf("%s: seat stream ended with %v", what, err)
		}
		items := seat.bodies()
		if items[0] != "snapshot@"+fmt.Sprint(seqOfItems(seat)) || !body("over")(seat.snapshot()[len(items)-1]) && len(items) > 1 {
			t.Fatalf("%s: seat stream %v", what, items)
		}
	}
	wantStreams("in memory")
	specBefore, _ := watchTable(t, h, f.id, 0).wait(t)
	seatBefore := f.follow(0, 3)
	if err := seatBefore.wait(); err != nil {
		t.Fatal(err)
	}

	f.advance(10 * time.Minute)
	if page, _ := h.List(host.ListQuery{}); len(page) != 0 {
		t.Fatalf("List after eviction = %d tables, want none", len(page))
	}
	loads := st.Loads()
	in := f.info()
	if in.ID != before.ID || in.State != host.Finished || in.LastSeq != before.LastSeq || !slices.Equal(in.Seats, before.Seats) || in.Key() != before.Key() {
		t.Fatalf("read back %+v, want %+v", in, before)
	}
	if st.Loads() != loads+1 {
		t.Errorf("Get read %d tables from the store, want 1", st.Loads()-loads)
	}
	wantStreams("read back")
	specAfter, _ := watchTable(t, h, f.id, 0).wait(t)
	if !slices.Equal(specAfter, specBefore) {
		t.Errorf("spectator stream read back:\n%v\nwant\n%v", specAfter, specBefore)
	}
	seatAfter := f.follow(0, 3)
	if err := seatAfter.wait(); err != nil || !slices.Equal(seatAfter.bodies(), seatBefore.bodies()) {
		t.Errorf("seat stream after seq 3 read back (%v):\n%v\nwant\n%v", err, seatAfter.bodies(), seatBefore.bodies())
	}
	if n, err := f.act(0, reqID, 0, toyAction{Seat: 0, Kind: "play", N: 2}); err != nil || n != reqSeq {
		t.Errorf("retried request %s = %d, %v; want %d as before", reqID, n, err, reqSeq)
	}
	if _, err := f.act(0, "new", in.LastSeq, toyAction{Seat: 0, Kind: "play", N: 2}); !errors.Is(err, host.ErrGameOver) {
		t.Errorf("a new action = %v, want ErrGameOver", err)
	}
	if _, _, err := h.Join(ctx, f.id, "late", nil); !errors.Is(err, host.ErrAlreadyStarted) {
		t.Errorf("Join = %v, want ErrAlreadyStarted", err)
	}
	if err := h.Leave(ctx, f.id, f.tokens[0]); !errors.Is(err, host.ErrGameOver) {
		t.Errorf("Leave = %v, want ErrGameOver", err)
	}
	var over bool
	if err := h.Inspect(ctx, f.id, func(g host.Game[toyAction, toyView, string]) error {
		over = g.Over()
		return nil
	}); err != nil || !over {
		t.Errorf("Inspect = %v, over %v", err, over)
	}
	if page, _ := h.List(host.ListQuery{}); len(page) != 0 {
		t.Fatalf("reading back put %d tables in memory", len(page))
	}
	if n := len(st.Entries(f.id)); n == 0 {
		t.Fatal("the store lost the log")
	}

	// A restart recovers nothing: the table stays in the store, unread,
	// until it is asked for.
	h.Close()
	h2, _, _ := lifeHost(t, st, clk.Now(), cfg)
	loads = st.Loads()
	if n, err := h2.Recover(ctx, nil); err != nil || n != 0 {
		t.Fatalf("Recover = %d, %v; want 0 tables", n, err)
	}
	if st.Loads() != loads {
		t.Errorf("Recover read %d finished tables", st.Loads()-loads)
	}
	if in, err := h2.Get(ctx, f.id); err != nil || in.State != host.Finished || in.LastSeq != before.LastSeq {
		t.Errorf("Get after a restart = %+v, %v", in, err)
	}
}

// seqOfItems is the seq of a stream's snapshot.
func seqOfItems(fl *follower) uint64 {
	items := fl.snapshot()
	if len(items) == 0 || items[0].Snapshot == nil {
		return 0
	}
	return items[0].Snapshot.Seq
}

// TestAbandonedTableClosed leaves a table that never starts alone: a join
// restarts its idle clock, and once nobody joined or left for IdleTTL the
// table is deleted from memory and from the store, its open stream ends
// with the reason, and it no longer counts against MaxTables nor comes
// back after a restart. A table that started is not idle.
func TestAbandonedTableClosed(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	cfg := host.Config[toyAction, toyView, string]{IdleTTL: time.Hour, MaxTables: 2,
		GameFor: func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
			return newToy(lifeRounds), nil
		}}
	t0 := time.Unix(1_700_000_000, 0)
	h, clk, logs := lifeHost(t, st, t0, cfg)
	f := fixtureOn(t, h, clk, st, lifeSettings, 0)
	// A table that plays and waits for its player for ever (no timers).
	busy := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true}, 1)
	if err := h.Start(context.Background(), busy.id, busy.owner); err != nil {
		t.Fatal(err)
	}
	if _, _, err := h.Create(context.Background(), lifeSettings, nil, newToy(1)); !errors.Is(err, host.ErrTooManyTables) {
		t.Fatalf("a third table = %v, want ErrTooManyTables", err)
	}
	f.advance(30 * time.Minute)
	f.join(1)
	seat := f.follow(0, 0)
	seat.waitFor(t, func(it host.Item[toyView, string]) bool { return it.Snapshot != nil })
	f.advance(time.Hour - time.Nanosecond)
	if f.info().State != host.Waiting {
		t.Fatal("the table left before its idle time since the join")
	}
	f.advance(time.Nanosecond)
	wantEvicted(t, "the open stream", seat.wait(), host.EvictAbandoned)
	_, err := h.Get(context.Background(), f.id)
	wantEvicted(t, "Get(abandoned table)", err, host.EvictAbandoned)
	if slices.Contains(st.Tables(), f.id) {
		t.Error("the store still holds the abandoned table")
	}
	if busy.info().State != host.Playing {
		t.Errorf("the playing table is %v after two idle times", busy.info().State)
	}
	if _, _, err := h.Create(context.Background(), lifeSettings, nil, newToy(1)); err != nil {
		t.Errorf("a new table after the eviction = %v", err)
	}
	entries := logs.FilterMessage("table evicted").All()
	if len(entries) != 1 || entries[0].ContextMap()["reason"] != "abandoned" || entries[0].ContextMap()["seat_streams"] != int64(1) {
		t.Errorf("eviction logs %v", entries)
	}

	h.Close()
	h2, _, _ := lifeHost(t, st, clk.Now(), cfg)
	if n, err := h2.Recover(context.Background(), nil); err != nil || n != 2 {
		t.Fatalf("Recover = %d, %v; want the 2 tables not abandoned", n, err)
	}
	if _, err := h2.Get(context.Background(), f.id); !errors.Is(err, host.ErrNotFound) {
		t.Errorf("the abandoned table after a restart: %v, want ErrNotFound", err)
	}
}

// TestEvictionWaitsForTheStore makes the store refuse the deletion of an
// abandoned table: the table stays in memory and tries again a minute
// later.
func TestEvictionWaitsForTheStore(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	h, clk, logs := lifeHost(t, st, time.Unix(1_700_000_000, 0), host.Config[toyAction, toyView, string]{IdleTTL: time.Hour})
	f := fixtureOn(t, h, clk, st, lifeSettings, 0)
	st.SetFail(func() error { return errors.New("disk full") })
	f.advance(time.Hour)
	if f.info().State != host.Waiting || logs.FilterMessage("table stays in memory: the store refused its eviction").Len() != 1 {
		t.Fatal("the table left memory without the store")
	}
	st.SetFail(nil)
	f.advance(time.Minute)
	if _, err := h.Get(context.Background(), f.id); !errors.Is(err, host.ErrEvicted) {
		t.Fatalf("after the retry: %v, want ErrEvicted", err)
	}
}

// TestRecoverLoadsOnlyUnfinished restarts on a store of many finished
// games and two tables not finished: recovery reads the two only, and a
// finished one is read when asked for.
func TestRecoverLoadsOnlyUnfinished(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	cfg := host.Config[toyAction, toyView, string]{Codec: toyCodec{},
		GameFor: func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
			return newToy(lifeRounds), nil
		}}
	h, clk, _ := lifeHost(t, st, time.Unix(1_700_000_000, 0), cfg)
	ctx := context.Background()
	var finished []string
	for range 50 {
		f := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true}, 0)
		if err := h.Start(ctx, f.id, f.owner); err != nil {
			t.Fatal(err)
		}
		if f.info().State != host.Finished {
			t.Fatal("a table of bots did not finish at once")
		}
		finished = append(finished, f.id)
	}
	waiting := fixtureOn(t, h, clk, st, lifeSettings, 1)
	playing := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true}, 1)
	if err := h.Start(ctx, playing.id, playing.owner); err != nil {
		t.Fatal(err)
	}
	h.Close()

	h2, _, _ := lifeHost(t, st, clk.Now(), cfg)
	loads := st.Loads()
	if n, err := h2.Recover(ctx, nil); err != nil || n != 2 {
		t.Fatalf("Recover = %d, %v; want 2", n, err)
	}
	if n := st.Loads() - loads; n != 2 {
		t.Fatalf("Recover read %d tables, want the 2 not finished", n)
	}
	page, _ := h2.List(host.ListQuery{})
	if len(page) != 2 || !slices.ContainsFunc(page, func(in host.Info) bool { return in.ID == playing.id }) ||
		!slices.ContainsFunc(page, func(in host.Info) bool { return in.ID == waiting.id }) {
		t.Fatalf("List after the restart = %v, want the playing and the waiting table", page)
	}
	if in, err := h2.Get(ctx, finished[17]); err != nil || in.State != host.Finished {
		t.Fatalf("Get(finished table) = %+v, %v", in, err)
	}
}

// TestPruneStore keeps finished games in the store for KeepGames: pruning
// runs at once and then every KeepGames (at most hourly) and deletes the
// games that ended more than KeepGames ago, and only those.
func TestPruneStore(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	h, clk, logs := lifeHost(t, st, time.Unix(1_700_000_000, 0), host.Config[toyAction, toyView, string]{KeepGames: 2 * time.Hour})
	ctx := context.Background()
	game := func() string {
		f := fixtureOn(t, h, clk, st, host.Settings{Seats: 4, FillWithBots: true}, 0)
		if err := h.Start(ctx, f.id, f.owner); err != nil {
			t.Fatal(err)
		}
		return f.id
	}
	clk.Advance(time.Minute) // the first pruning, at 0
	old := game()            // ends at 1m
	clk.Advance(90 * time.Minute)
	young := game() // ends at 91m
	waiting := fixtureOn(t, h, clk, st, lifeSettings, 0).id
	// Prunings run every hour; the one at 180m deletes what ended before
	// 60m.
	clk.Advance(89*time.Minute - time.Nanosecond)
	if len(st.Tables()) != 3 {
		t.Fatalf("store %v before the pruning", st.Tables())
	}
	clk.Advance(time.Nanosecond)
	if got := st.Tables(); !slices.Equal(got, []string{young, waiting}) {
		t.Fatalf("store after pruning %v, want %v (pruned %s)", got, []string{young, waiting}, old)
	}
	if logs.FilterMessage("finished games pruned").Len() != 1 {
		t.Error("the pruning was not logged")
	}
	clk.Advance(time.Hour)
	if got := st.Tables(); !slices.Equal(got, []string{waiting}) {
		t.Fatalf("store %v, want only the waiting table", got)
	}
	h.Close()
	if n := clk.Pending(); n != 0 {
		t.Errorf("%d timers pending after Close", n)
	}
}

// TestRefusedAutoStartRetried: the store refuses the start that the
// fourth join makes. The seats stay taken, the table is not closed as
// abandoned while the store is down, and it starts by itself within a
// second of the store taking writes again.
func TestRefusedAutoStartRetried(t *testing.T) {
	st := host.NewMemoryStore[toyAction]()
	h, clk, logs := lifeHost(t, st, time.Unix(1_700_000_000, 0), host.Config[toyAction, toyView, string]{IdleTTL: time.Hour})
	f := fixtureOn(t, h, clk, st, lifeSettings, 3)
	writes := 0
	st.SetFail(func() error { // called under the store's lock
		if writes++; writes > 1 {
			return errors.New("disk full")
		}
		return nil
	})
	if seat, _, err := h.Join(context.Background(), f.id, "p3", nil); err != nil || seat != 3 {
		t.Fatalf("Join = %d, %v; want seat 3", seat, err)
	}
	for range 120 {
		f.advance(time.Minute)
	}
	if in := f.info(); in.State != host.Waiting {
		t.Fatalf("with the store down the table is %v", in.State)
	}
	if n := logs.FilterMessage("auto start").Len(); n < 100 {
		t.Fatalf("%d retries of the start in two hours", n)
	}
	st.SetFail(nil)
	f.advance(time.Second)
	if in := f.info(); in.State == host.Waiting {
		t.Fatal("the table did not start once the store took writes again")
	}
}
