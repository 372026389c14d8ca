package jetstream

import (
	"context"
	"reflect"
	"testing"
	"time"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/table"
)

// riichiTables opens riichi's tables over st with the fake clock.
func riichiTables(t *testing.T, clk clock.Clock, st host.Store[table.Action]) *riichi.Tables {
	t.Helper()
	cfg := riichi.Standard()
	cfg.Store = st
	ts, err := riichi.New(cfg).Open(ruleset.Hosting{Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	return ts.(*riichi.Tables)
}

// riichiGame is an east-only game of four bots with a fixed seed and the
// claim dwell on, played by moving the fake clock a second at a time.
type riichiGame struct {
	t   *testing.T
	clk *clock.Fake
	ts  *riichi.Tables
	id  string
}

func newRiichiGame(t *testing.T, st host.Store[table.Action]) *riichiGame {
	t.Helper()
	clk := clock.NewFake(time.Unix(1_700_000_000, 0))
	g := &riichiGame{t: t, clk: clk, ts: riichiTables(t, clk, st)}
	set := &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU}
	if err := riichi.New(riichi.Standard()).Check(set); err != nil {
		t.Fatal(err)
	}
	raw, err := proto.Marshal(set)
	if err != nil {
		t.Fatal(err)
	}
	seed := [32]byte{7, 7, 7}
	m := ruleset.Meta{Settings: raw, Seed: seed, Seeded: true, Commitment: fair.SeedCommitment(seed)}
	hs := host.Settings{TurnTime: time.Minute, ClaimTime: time.Minute, RoundPause: time.Second, ClaimDwell: time.Second, FillWithBots: true}
	info, owner, err := g.ts.Create(context.Background(), hs, m)
	if err != nil {
		t.Fatal(err)
	}
	g.id = info.ID
	if err := g.ts.Start(context.Background(), g.id, owner); err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *riichiGame) info() host.Info {
	g.t.Helper()
	in, err := g.ts.Get(context.Background(), g.id)
	if err != nil {
		g.t.Fatal(err)
	}
	in.Created = in.Created.UTC()
	return in
}

// run moves the clock a second at a time, each time once the table has
// armed its next timer, n times or until the game is over; it returns how
// many times it moved it.
func (g *riichiGame) run(n int) int {
	g.t.Helper()
	for i := range n {
		if !g.armed() {
			return i // the game is over
		}
		g.clk.Advance(time.Second)
	}
	g.armed()
	return n
}

// armed waits until the table has armed its next timer and reports true,
// or until its game is over and reports false.
func (g *riichiGame) armed() bool {
	g.t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		if g.clk.WaitPending(1, 20*time.Millisecond) {
			return true
		}
		if g.info().State == host.Finished {
			return false
		}
	}
	g.t.Fatalf("the table armed no timer: %v", g.info().State)
	return false
}

// settled returns the table's info once it stops changing: with the
// clock still, the table finishes the steps in flight, then waits.
func (g *riichiGame) settled() host.Info {
	g.t.Helper()
	in := g.info()
	for range 100 {
		time.Sleep(50 * time.Millisecond)
		next := g.info()
		if reflect.DeepEqual(next, in) {
			return in
		}
		in = next
	}
	g.t.Fatal("the table does not settle")
	return in
}

// TestRiichiOverStore plays an east-only riichi game of four bots (fixed
// seed, claim dwell on) over the store, restarts mid-game onto a new host
// and store instance through another server, and plays it to its end: the
// table recovers as it was, and the log read back from the store replays,
// on a host over a MemoryStore, to the same finished table.
func TestRiichiOverStore(t *testing.T) {
	if testing.Short() {
		t.Skip("a whole game")
	}
	// How many steps of the clock a game takes.
	ref := newRiichiGame(t, host.NewMemoryStore[table.Action]())
	steps := ref.run(100000)
	if ref.info().State != host.Finished {
		t.Fatal("the reference game did not end")
	}
	ref.ts.Close()

	c := newCluster(t, 3)
	ctx := context.Background()
	g := newRiichiGame(t, open[table.Action](t, c, 0, "riichi", riichi.ActionCodec{}))
	g.run(steps / 2)
	before := g.settled()
	if before.State != host.Playing {
		t.Fatalf("mid-game the table is %v", before.State)
	}
	g.ts.Close()
	st := open[table.Action](t, c, 1, "riichi", riichi.ActionCodec{})
	g.ts = riichiTables(t, g.clk, st)
	defer g.ts.Close()
	if n, err := g.ts.Recover(ctx); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	if after := g.info(); !reflect.DeepEqual(after, before) {
		t.Fatalf("recovered\n%+v\nwas\n%+v", after, before)
	}
	g.run(100000)
	final := g.info()
	if final.State != host.Finished {
		t.Fatal("the game did not end")
	}

	// The whole log, read through a third server, into a MemoryStore.
	rd := open[table.Action](t, c, 2, "riichi", riichi.ActionCodec{})
	rec, _, _, err := rd.LoadTable(ctx, g.id)
	if err != nil {
		t.Fatal(err)
	}
	es, err := rd.LoadEntries(ctx, g.id, 0)
	if err != nil {
		t.Fatal(err)
	}
	mem := host.NewMemoryStore[table.Action]()
	if err := mem.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := mem.Append(ctx, g.id, es...); err != nil {
		t.Fatal(err)
	}
	replay := riichiTables(t, g.clk, mem)
	defer replay.Close()
	if _, err := replay.Recover(ctx); err != nil {
		t.Fatal(err)
	}
	// The replayed game is over: the table finishes as it settles.
	var in host.Info
	for deadline := time.Now().Add(10 * time.Second); ; {
		if in, err = replay.Get(ctx, g.id); err != nil {
			t.Fatal(err)
		}
		if in.State == host.Finished || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	in.Created = in.Created.UTC()
	if !reflect.DeepEqual(in, final) {
		t.Fatalf("the log replays to\n%+v\nthe game ended as\n%+v", in, final)
	}
}
