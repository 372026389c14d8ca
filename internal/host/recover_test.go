package host_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// TestRecover stops a host in the middle of a claim dwell and starts a new
// one on the same store: the table, its tokens, every seat's numbered
// events, a remembered request id, the bot and the dwell are back, and the
// game plays on to its end.
func TestRecover(t *testing.T) {
	store := host.NewMemoryStore[toyAction]()
	bots := func() host.Bot[toyAction, toyView] { return maxBot{} }
	set := host.Settings{Seats: 4, TurnTime: 10 * time.Second, ClaimTime: 5 * time.Second, ClaimDwell: 2 * time.Second, FillWithBots: true}
	f := &fixture{t: t, clk: clock.NewFake(time.Unix(1_700_000_000, 0)), store: store}
	f.h = host.New(host.Config[toyAction, toyView, string]{Clock: f.clk, Store: store, Bot: bots})
	info, owner, err := f.h.Create(context.Background(), set, []byte("meta"), newToy(2))
	if err != nil {
		t.Fatal(err)
	}
	f.id, f.owner = info.ID, owner
	f.join(3)
	if err := f.h.Start(context.Background(), f.id, owner); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var before [3]*recorder
	for s := range before {
		before[s] = record(ctx, f.h, f.id, f.tokens[s], 1)
	}
	// Seat 0 plays; seat 2 passes the offer; seat 1 plays and the dwell of
	// its window is running when the host stops.
	seq0, err := f.act(0, "r1", f.seq(0), toyAction{Seat: 0, Kind: "play", N: 2})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.act(2, "r2", f.seq(2), toyAction{Seat: 2, Kind: "pass"}); err != nil {
		t.Fatal(err)
	}
	f.clk.Advance(2 * time.Second)
	if _, err := f.act(1, "r3", f.seq(1), toyAction{Seat: 1, Kind: "play", N: 1}); err != nil {
		t.Fatal(err)
	}
	var heads [3]uint64
	var seen [3][]string
	for s := range heads {
		heads[s] = f.seq(s)
		seen[s] = before[s].waitLen(t, int(heads[s])-1)
	}
	cancel()
	f.h.Close()

	clk := clock.NewFake(f.clk.Now().Add(time.Minute))
	h := host.New(host.Config[toyAction, toyView, string]{Clock: clk, Store: store, Bot: bots})
	defer h.Close()
	n, err := h.Recover(context.Background(), func(rec host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		if string(rec.Meta) != "meta" || rec.Settings != set {
			t.Errorf("record %+v", rec)
		}
		return newToy(2), nil
	})
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1 table", n, err)
	}
	f.h, f.clk = h, clk
	in := f.info()
	if in.State != host.Playing || !in.Seats[3].Bot || in.Seats[0].Bot || in.Seats[0].Name != "p0" {
		t.Fatalf("recovered table %+v", in)
	}
	for s := range heads {
		if got := f.seq(s); got != heads[s] {
			t.Fatalf("seat %d at %d after recovery, was at %d", s, got, heads[s])
		}
	}
	// A retry of an acknowledged request is answered as before.
	if got, err := f.act(0, "r1", 0, toyAction{Seat: 0, Kind: "play", N: 2}); err != nil || got != seq0 {
		t.Fatalf("retried r1 = %d, %v; want %d", got, err, seq0)
	}
	// The dwell is still on, restarted in full.
	if _, err := f.act(2, "r4", f.seq(2), toyAction{Seat: 2, Kind: "play", N: 1}); !errors.Is(err, host.ErrWindowOpen) {
		t.Fatalf("act during the recovered dwell = %v, want ErrWindowOpen", err)
	}
	// Every seat resumes after the last event it had.
	var after [3]*recorder
	actx, acancel := context.WithCancel(context.Background())
	defer acancel()
	for s := range after {
		after[s] = record(actx, h, f.id, f.tokens[s], heads[s])
	}
	clk.Advance(2 * time.Second)
	play(t, f, 0, 1, 2)
	for s := range after {
		if err := <-after[s].done; err != nil {
			t.Fatalf("seat %d's resumed stream: %v", s, err)
		}
		// A stream from the start on the new host has the old events with
		// the old numbers, then the resumed ones.
		full := record(context.Background(), h, f.id, f.tokens[s], 1)
		if err := <-full.done; err != nil {
			t.Fatal(err)
		}
		if want := append(slices.Clone(seen[s]), after[s].got()...); !slices.Equal(full.got(), want) {
			t.Fatalf("seat %d from the start:\n%v\nwant\n%v", s, full.got(), want)
		}
	}
	if f.info().State != host.Finished {
		t.Fatalf("state %v, want finished", f.info().State)
	}
}

// TestRecoverSetsBrokenLogAside: a log that does not replay is not a
// half-built table, and it keeps no other table from resuming: recovery
// sets it aside, logs it, and every request that names it is told it is
// damaged (ErrCorruptLog), while the good table plays on.
func TestRecoverSetsBrokenLogAside(t *testing.T) {
	store := host.NewMemoryStore[toyAction]()
	ctx := context.Background()
	for _, id := range []string{"t1", "t2"} {
		if err := store.Create(ctx, host.TableRecord{ID: id, Settings: host.Settings{Seats: 4, FillWithBots: true}}); err != nil {
			t.Fatal(err)
		}
	}
	// t1 plays before the deal.
	if err := store.Append(ctx, "t1", host.Entry[toyAction]{Kind: host.EntryAction, Actor: 0, Action: toyAction{Kind: "play", N: 1}}); err != nil {
		t.Fatal(err)
	}
	core, logs := observer.New(zapcore.InfoLevel)
	h := host.New(host.Config[toyAction, toyView, string]{Store: store, Log: zap.New(core)})
	defer h.Close()
	n, err := h.Recover(ctx, func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(1), nil })
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want the good table resumed and no error", n, err)
	}
	if logs.FilterMessage("table damaged in the store: not resumed").FilterField(zap.String("table", "t1")).Len() != 1 {
		t.Error("the damaged table was not logged")
	}
	var d *host.DamagedError
	if _, err := h.Get(ctx, "t1"); !errors.As(err, &d) || d.ID != "t1" || !errors.Is(err, host.ErrCorruptLog) {
		t.Fatalf("Get(t1) = %v, want a DamagedError matching ErrCorruptLog", err)
	}
	if _, _, err := h.Join(ctx, "t1", "ann", nil); !errors.Is(err, host.ErrCorruptLog) {
		t.Fatalf("Join(t1) = %v, want ErrCorruptLog", err)
	}
	if in, err := h.Get(ctx, "t2"); err != nil || in.State != host.Waiting {
		t.Fatalf("Get(t2) = %+v, %v; want the good table waiting", in, err)
	}
}

// TestDamagedErrorHidesCause: every client that names a damaged table gets
// its error, so the message must not quote the cause, which can hold the
// hidden state (here, a hand); the cause stays reachable for the log.
func TestDamagedErrorHidesCause(t *testing.T) {
	cause := errors.New("replay entry 7: seat 2 holds 123m456p")
	err := error(&host.DamagedError{ID: "t1", Err: cause})
	if strings.Contains(err.Error(), "123m") || !strings.Contains(err.Error(), "t1") {
		t.Errorf("DamagedError.Error() = %q: want the table named, the cause left out", err.Error())
	}
	if !errors.Is(err, cause) || !errors.Is(err, host.ErrCorruptLog) {
		t.Errorf("DamagedError does not match its cause or ErrCorruptLog")
	}
}
