package server_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
)

// TestStorageFault makes the store refuse writes (a full disk) in the
// middle of a real game: the action is refused with UNAVAILABLE and
// STORAGE_UNAVAILABLE, nothing of the table changes, and once the store
// takes writes again the same request goes through and the game plays to
// its end.
func TestStorageFault(t *testing.T) {
	cfg := riichiConfig()
	mem := host.NewMemoryStore[table.Action]()
	faulty := store.NewFaulty[table.Action](mem)
	cfg.Store = faulty
	cfg.Clock = clock.NewFake(time.Unix(1_800_000_000, 0))
	e := startEnv(t, cfg)
	id, _ := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(11)})
	s := newStepper(t, e, id, cfg.Clock.(*clock.Fake))
	s.run(40)
	var checked bool
	s.act = func(k int, req *pb.ActRequest) error {
		if checked {
			_, err := e.tables.Act(ctxT(t), req)
			return err
		}
		checked = true
		before := e.table(t, id)
		var views [4]*pb.Snapshot
		for i, st := range s.seats {
			views[i] = e.snapshotOf(t, id, st.token)
		}
		entries := len(mem.Entries(id))
		faulty.SetFault(errors.New("no space left on device"))
		_, err := e.tables.Act(ctxT(t), req)
		wantStatus(t, "act on a full disk", err, codes.Unavailable, pb.ErrorReason_ERROR_REASON_STORAGE_UNAVAILABLE)
		if after := e.table(t, id); !proto.Equal(after, before) {
			t.Fatalf("the refused action changed the table:\n%v\nwant\n%v", after, before)
		}
		for i, st := range s.seats {
			if v := e.snapshotOf(t, id, st.token); !proto.Equal(v, views[i]) {
				t.Fatalf("the refused action changed seat %d's view", i)
			}
		}
		if n := len(mem.Entries(id)); n != entries {
			t.Fatalf("the refused action stored %d entries", n-entries)
		}
		faulty.SetFault(nil)
		// The client retries with the same request id.
		_, err = e.tables.Act(ctxT(t), req)
		if err == nil && len(mem.Entries(id)) == entries {
			t.Fatal("the retried action stored nothing")
		}
		return err
	}
	s.run(0)
	out := s.finish()
	if !checked || faulty.Refused() == 0 {
		t.Fatal("no action met the fault")
	}
	if last := out[0][len(out[0])-1]; last.GetGameEnded() == nil {
		t.Fatalf("last event %v, want game_ended", last)
	}
}

// TestRecoverRealGame stops a server on a bbolt store in the middle of a
// claim dwell of a real game, opens the store again in a new server (which
// restores the table from its latest snapshot) and plays on: tokens work, every seat resumes after its last seq with the
// same numbers, a retried request is answered as before, the game ends,
// every acknowledged request is in the log once, and the final scores are
// those of a replay of the log through the engine.
func TestRecoverRealGame(t *testing.T) {
	_, openStore := boltStore(t)
	st := openStore()
	cfg := riichiConfig()
	cfg.Store = st
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock = clk
	e, stop := startStoppableEnv(t, cfg)
	id, _ := e.create(t, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(12), ClaimDwell: durationpb.New(time.Second)})
	s := newStepper(t, e, id, clk)
	s.dwell = time.Second
	// Play into the second round, then stop right after a discard, with
	// its dwell running.
	for rounds := 0; rounds < 2; {
		if s.step() {
			t.Fatal("the game ended before the stop")
		}
		rounds = 0
		for _, ev := range s.seats[0].evs {
			if ev.GetRoundStarted() != nil {
				rounds++
			}
		}
	}
	s.run(40)
	for s.last.GetAction().GetType() != pb.ActionType_ACTION_TYPE_DISCARD || clk.Pending() == 0 {
		if s.step() {
			t.Fatal("the game ended before the stop")
		}
	}
	s.sync()
	lastReq := s.last
	answer, err := e.tables.Act(ctxT(t), lastReq)
	if err != nil {
		t.Fatalf("retry before the stop: %v", err)
	}
	stop()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	st = openStore()
	defer st.Close()
	// The game is past its first round: the table comes back from its
	// latest snapshot and the entries after it.
	var snap *host.TableSnapshot
	if err := st.Load(context.Background(), func(rec host.TableRecord, sn *host.TableSnapshot, _ []host.Entry[table.Action]) error {
		snap = sn
		return nil
	}); err != nil || snap == nil {
		t.Fatalf("Load = %v with snapshot %v, want one", err, snap)
	}
	spy := &logReads{Store: st}
	cfg.Store = spy
	clk2 := clock.NewFake(clk.Now().Add(time.Hour))
	cfg.Clock = clk2
	e2 := startEnv(t, cfg)
	if n := spy.n.Load(); n != 0 {
		t.Fatalf("the recovery read the whole log %d times: the snapshot did not restore", n)
	}
	s.e, s.clk, s.discardAt = e2, clk2, clk2.Now() // the dwell starts again in full
	if got, err := e2.tables.Act(ctxT(t), lastReq); err != nil || got.GetSeq() != answer.GetSeq() {
		t.Fatalf("retry after the restart = %v, %v; want seq %d", got, err, answer.GetSeq())
	}
	for _, ss := range s.seats {
		ss.follow(t, e2, id, ss.from+uint64(len(ss.evs)))
	}
	s.run(0)
	out := s.finish()

	// A stream from before the game on the new server has everything,
	// numbered as the seats saw it across the restart.
	for k, ss := range s.seats {
		fresh := &seatStream{token: ss.token}
		fresh.follow(t, e2, id, s.from)
		var got []*pb.Event
		for len(got) < len(out[k]) {
			r, err := fresh.st.Recv()
			if err != nil {
				t.Fatalf("seat %d: %v", k, err)
			}
			got = append(got, r.GetEvent())
		}
		if d := diff(got, out[k]); d != "" {
			t.Fatalf("seat %d from the start after the restart and as played: %s", k, d)
		}
	}
	var entries []host.Entry[table.Action]
	entries, err = st.LoadEntries(context.Background(), id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, en := range entries {
		if en.RequestID != "" {
			ids = append(ids, en.RequestID)
		}
	}
	for _, a := range s.acked {
		if n := count(ids, a); n != 1 {
			t.Fatalf("acknowledged request %s is in the log %d times", a, n)
		}
	}
	final := out[0][len(out[0])-1].GetGameEnded()
	if final == nil {
		t.Fatalf("the last event is %v, want game_ended", out[0][len(out[0])-1])
	}
	want := replayScores(t, table.TenhouTonpuu, entries)
	if got := final.GetScores(); !slices.Equal(got, want[:]) {
		t.Fatalf("final scores %v, a replay of the log gives %v", got, want)
	}
	// The game's record, rebuilt across the restart, verifies: every wall
	// against its revealed seed and commitment, and the replay.
	g, err := record.Decode([]byte(e2.export(t, id, pb.RecordFormat_RECORD_FORMAT_NATIVE).GetRecord()))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := record.Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Err(); err != nil || g.Partial || rep.Verified != len(g.Rounds) || !rep.Chain || !rep.Replayed {
		t.Fatalf("Verify(record after a restart) = %v: partial %v, %d of %d rounds, chain %v, replayed %v", err, g.Partial, rep.Verified, len(g.Rounds), rep.Chain, rep.Replayed)
	}
}

// logReads is a store that counts the reads of whole logs.
type logReads struct {
	host.Store[table.Action]
	n atomic.Int32
}

func (s *logReads) LoadEntries(ctx context.Context, id string, from uint64) ([]host.Entry[table.Action], error) {
	s.n.Add(1)
	return s.Store.LoadEntries(ctx, id, from)
}

func count(xs []string, x string) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}

// replayScores plays a table's logged actions through a new engine and
// returns the final scores.
func replayScores(t *testing.T, rules table.Rules, entries []host.Entry[table.Action]) [4]int32 {
	t.Helper()
	eng, err := table.New(table.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var out [4]int32
	ended := false
	for i, en := range entries {
		if en.Kind != host.EntryAction {
			continue
		}
		evs, err := eng.Step(en.Action)
		if err != nil {
			t.Fatalf("replay of entry %d (%v): %v", i, en.Action, err)
		}
		for _, ev := range evs {
			if g, ok := ev.Body.(table.GameEnded); ok {
				for s, v := range g.Scores {
					out[s] = int32(v)
				}
				ended = true
			}
		}
	}
	if !ended {
		t.Fatal("the replayed log does not end the game")
	}
	return out
}

// boltStore is a riichi store's file in t's temporary directory and the
// function that opens it (again after a stop, as a restarted server does).
func boltStore(t *testing.T) (path string, open func() *store.Bolt[table.Action]) {
	path = filepath.Join(t.TempDir(), "authority.db")
	return path, func() *store.Bolt[table.Action] {
		t.Helper()
		st, err := store.Open[table.Action](path, riichi.ActionCodec{})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
}
