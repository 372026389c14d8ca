package server_test

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
)

// snapSpy is a store that keeps every snapshot saved (the MemoryStore
// keeps the latest only) and counts the reads of whole logs.
type snapSpy struct {
	*host.MemoryStore[table.Action]
	mu    sync.Mutex
	snaps []host.TableSnapshot
	logs  atomic.Int32
}

func newSnapSpy() *snapSpy { return &snapSpy{MemoryStore: host.NewMemoryStore[table.Action]()} }

func (s *snapSpy) SaveSnapshot(ctx context.Context, id string, snap host.TableSnapshot) error {
	if err := s.MemoryStore.SaveSnapshot(ctx, id, snap); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.snaps = append(s.snaps, snap)
	return nil
}

func (s *snapSpy) LoadEntries(ctx context.Context, id string, from uint64) ([]host.Entry[table.Action], error) {
	s.logs.Add(1)
	return s.MemoryStore.LoadEntries(ctx, id, from)
}

// crashedAt is the store a crash after the first n entries of a table's
// log leaves: those entries, and, with snaps, the snapshots saved by then.
func (s *snapSpy) crashedAt(t *testing.T, rec host.TableRecord, n uint64, snaps bool) *snapSpy {
	t.Helper()
	ctx := context.Background()
	c := newSnapSpy()
	if err := c.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := c.Append(ctx, rec.ID, s.Entries(rec.ID)[:n]...); err != nil {
		t.Fatal(err)
	}
	if snaps {
		for _, sn := range s.snaps {
			if sn.Entries <= n {
				if err := c.SaveSnapshot(ctx, rec.ID, sn); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return c
}

// soloTable is a hanchan of one player (seat 0, who plays as the efficient
// bot does) and three bots, in process.
type soloTable struct {
	t     *testing.T
	srv   *server.Server
	clk   *clock.Fake
	id    string
	token string
	n     int // requests sent
	acked map[string]uint64
}

func soloConfig(st host.Store[table.Action], clk *clock.Fake) config {
	cfg := riichiConfig()
	cfg.Store, cfg.Clock = st, clk
	return cfg
}

func newSoloTable(t *testing.T, st host.Store[table.Action]) *soloTable {
	t.Helper()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	srv, err := newServer(soloConfig(st, clk))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	ctx := context.Background()
	r, err := server.CreateForTest(ctx, srv, &pb.CreateTableRequest{Settings: &pb.TableSettings{
		FillWithBots: true, Seed: seed(31), ClaimDwell: durationpb.New(0),
	}})
	if err != nil {
		t.Fatal(err)
	}
	s := &soloTable{t: t, srv: srv, clk: clk, id: r.GetTable().GetTableId(), acked: map[string]uint64{}}
	if _, s.token, err = riichiHost(srv).Join(ctx, s.id, "solo", []byte("entropy")); err != nil {
		t.Fatal(err)
	}
	if err := riichiHost(srv).Start(ctx, s.id, r.GetOwnerToken()); err != nil {
		t.Fatal(err)
	}
	return s
}

// recovered is the table on a new server recovered from st.
func (s *soloTable) recovered(t *testing.T, st host.Store[table.Action]) *soloTable {
	t.Helper()
	clk := clock.NewFake(s.clk.Now().Add(time.Hour))
	srv, err := newServer(soloConfig(st, clk))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	if n, err := srv.Recover(context.Background()); err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v", n, err)
	}
	r := &soloTable{t: t, srv: srv, clk: clk, id: s.id, token: s.token, n: 1_000_000, acked: s.acked}
	r.view() // the recovered table has played its bots' moves
	return r
}

// view is seat 0's view, read in a call into the table.
func (s *soloTable) view() table.View {
	var v table.View
	err := riichiHost(s.srv).Inspect(context.Background(), s.id, func(g riichi.Game) error {
		v = g.View(0)
		return nil
	})
	if err != nil {
		s.t.Fatal(err)
	}
	return v
}

// play plays seat 0 until the game ends or until stop says so.
func (s *soloTable) play(stop func() bool) {
	s.t.Helper()
	ctx := context.Background()
	h := riichiHost(s.srv)
	for !stop() {
		v := s.view()
		if v.Phase == table.GameOver {
			return
		}
		a, ok := bot.Efficient{}.Act(&v)
		if !ok {
			s.t.Fatalf("seat 0 has nothing to do in %v", v.Phase)
		}
		last, err := h.SeatSeq(ctx, s.id, s.token)
		if err != nil {
			s.t.Fatal(err)
		}
		s.n++
		id := fmt.Sprintf("solo-%d", s.n)
		seq, err := h.Act(ctx, s.id, host.Request[table.Action]{Token: s.token, LastSeq: last, RequestID: id, Action: a})
		if err != nil {
			s.t.Fatalf("act %v: %v", a, err)
		}
		s.acked[id] = seq
	}
}

// outcome is everything the table shows: seat 0's stream from the start
// and its snapshot, the spectators' stream, the table's description and
// its exports.
type outcome struct {
	info    host.Info
	snap    host.Snapshot[table.View]
	seat    []host.Event[table.Body]
	public  []host.Event[table.Body]
	exports []string
}

func (s *soloTable) outcome() outcome {
	s.t.Helper()
	ctx := context.Background()
	h := riichiHost(s.srv)
	var o outcome
	var err error
	if o.info, err = h.Get(context.Background(), s.id); err != nil {
		s.t.Fatal(err)
	}
	head, err := h.SeatSeq(ctx, s.id, s.token)
	if err != nil {
		s.t.Fatal(err)
	}
	// follow collects a stream until it has n items (or it ends with the
	// game).
	follow := func(n uint64, run func(ctx context.Context, add func()) error) {
		fctx, cancel := context.WithCancel(ctx)
		defer cancel()
		got := uint64(0)
		if n == 0 {
			return
		}
		err := run(fctx, func() {
			if got++; got == n {
				cancel()
			}
		})
		if err != nil && fctx.Err() == nil {
			s.t.Fatal(err)
		}
		if got != n {
			s.t.Fatalf("a stream ended after %d items, want %d", got, n)
		}
	}
	follow(1, func(ctx context.Context, add func()) error {
		return h.Follow(ctx, s.id, s.token, 0, func(it host.Item[table.View, table.Body]) error {
			if it.Snapshot != nil { // a standing offer follows it
				o.snap = *it.Snapshot
				add()
			}
			return nil
		})
	})
	follow(head-1, func(ctx context.Context, add func()) error {
		return h.Follow(ctx, s.id, s.token, 1, func(it host.Item[table.View, table.Body]) error {
			o.seat = append(o.seat, *it.Event)
			add()
			return nil
		})
	})
	follow(o.info.LastSeq, func(ctx context.Context, add func()) error {
		return h.Watch(ctx, s.id, 0, func(e *host.Event[table.Body]) error {
			o.public = append(o.public, *e)
			add()
			return nil
		})
	})
	for _, f := range []pb.RecordFormat{pb.RecordFormat_RECORD_FORMAT_NATIVE, pb.RecordFormat_RECORD_FORMAT_TENHOU, pb.RecordFormat_RECORD_FORMAT_MJAI} {
		r, err := server.ExportForTest(ctx, s.srv, &pb.ExportGameRequest{TableId: s.id, Format: f})
		if err != nil {
			s.t.Fatal(err)
		}
		o.exports = append(o.exports, r.GetRecord())
	}
	return o
}

// same fails unless two outcomes are equal, the times of events aside
// (two recovered servers play on at their own clocks' times).
func same(t *testing.T, what string, got, want outcome) {
	t.Helper()
	if !reflect.DeepEqual(got.info, want.info) {
		t.Fatalf("%s: table %+v, want %+v", what, got.info, want.info)
	}
	if !reflect.DeepEqual(got.snap, want.snap) {
		t.Fatalf("%s: seat 0's snapshot\n%+v\nwant\n%+v", what, got.snap, want.snap)
	}
	for _, c := range []struct {
		name      string
		got, want []host.Event[table.Body]
	}{{"seat 0", got.seat, want.seat}, {"spectators", got.public, want.public}} {
		if len(c.got) != len(c.want) {
			t.Fatalf("%s: %s have %d events, want %d", what, c.name, len(c.got), len(c.want))
		}
		for i := range c.want {
			g, w := c.got[i], c.want[i]
			g.At, w.At = time.Time{}, time.Time{}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: %s's event %d\n%+v\nwant\n%+v", what, c.name, i, g, w)
			}
		}
	}
	for i := range want.exports {
		if got.exports[i] != want.exports[i] {
			t.Fatalf("%s: export %d\n%s\nwant\n%s", what, i, got.exports[i], want.exports[i])
		}
	}
}

// TestRecoverFromSnapshotLikeFromLog plays a hanchan of one player and
// three bots, then simulates crashes after various entries of its log -
// right at a round boundary, just after one, in the middle of the last
// round, after the end - and recovers each twice: from the snapshots saved
// by then and the entries after the latest, and from the log alone. Both
// must show the same table (seat 0's snapshot and its whole stream, the
// spectators', the exports), answer retried requests the same, and play
// on to the same end, whose record verifies.
func TestRecoverFromSnapshotLikeFromLog(t *testing.T) {
	st := newSnapSpy()
	orig := newSoloTable(t, st)
	orig.play(func() bool { return false })
	want := orig.outcome()
	if want.info.State != host.Finished {
		t.Fatalf("table %v, want finished", want.info.State)
	}
	log := st.Entries(orig.id)
	if len(st.snaps) < 5 {
		t.Fatalf("%d snapshots for a hanchan", len(st.snaps))
	}
	// The finished table is no longer one Load passes on.
	rec, _, _, err := st.LoadTable(context.Background(), orig.id)
	if err != nil {
		t.Fatal(err)
	}
	last := st.snaps[len(st.snaps)-1]
	if last.Entries != uint64(len(log)) {
		t.Fatalf("the last snapshot covers %d of %d entries: none at the game's end", last.Entries, len(log))
	}
	// A snapshot in the middle of the game with enough acknowledged
	// requests before it to retry. Which rounds get one depends on how
	// fast the store answers: while a write is slow the table plays on,
	// and a newer snapshot replaces the last of those waiting.
	requestsBefore := func(n uint64) (k int) {
		for _, e := range log[:n] {
			if e.RequestID != "" {
				k++
			}
		}
		return k
	}
	i := len(st.snaps) / 2
	for i < len(st.snaps)-2 && requestsBefore(st.snaps[i].Entries) < 50 {
		i++
	}
	mid := st.snaps[i].Entries
	for _, n := range []uint64{mid, mid + 1, st.snaps[len(st.snaps)-2].Entries + 20, uint64(len(log))} {
		withSnaps := st.crashedAt(t, rec, n, true)
		if _, ok := withSnaps.Snapshot(rec.ID); !ok {
			t.Fatalf("no snapshot after %d entries", n)
		}
		fromSnap := orig.recovered(t, withSnaps)
		fromLog := orig.recovered(t, st.crashedAt(t, rec, n, false))
		what := fmt.Sprintf("crash after entry %d of %d", n, len(log))
		if withSnaps.logs.Load() != 0 {
			t.Fatalf("%s: the recovery from a snapshot read the whole log", what)
		}
		a, b := fromSnap.outcome(), fromLog.outcome()
		same(t, what+", from the snapshot and from the log", a, b)
		// The requests acknowledged before the crash are answered again
		// as they were.
		var ids []host.Entry[table.Action]
		for _, e := range log[:n] {
			if e.RequestID != "" {
				ids = append(ids, e)
			}
		}
		retried := 0
		for _, e := range ids[max(0, len(ids)-200):] { // the dedupe window is 256

			for _, r := range []*soloTable{fromSnap, fromLog} {
				seq, err := riichiHost(r.srv).Act(context.Background(), r.id, host.Request[table.Action]{Token: r.token, RequestID: e.RequestID, Action: e.Action})
				if err != nil || seq != orig.acked[e.RequestID] {
					t.Fatalf("%s: retried %s = %d, %v; want %d", what, e.RequestID, seq, err, orig.acked[e.RequestID])
				}
			}
			retried++
		}
		if retried < 50 {
			t.Fatalf("%s: %d requests retried", what, retried)
		}
		fromSnap.play(func() bool { return false })
		fromLog.play(func() bool { return false })
		a, b = fromSnap.outcome(), fromLog.outcome()
		same(t, what+", played on", a, b)
		if n == uint64(len(log)) {
			same(t, what+", and as played", a, want)
		}
		g, err := record.Decode([]byte(a.exports[0]))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := record.Verify(g)
		if err != nil || rep.Err() != nil || !rep.Replayed || g.Partial {
			t.Fatalf("%s: Verify(export) = %v, %v", what, err, rep.Err())
		}
	}
}
