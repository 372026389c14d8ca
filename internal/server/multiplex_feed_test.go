package server_test

import (
	"context"
	"errors"
	"io"
	"runtime"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
)

// TestMultiplexFollowsCostNoGoroutine opens 200 follows on one stream and
// counts the server's goroutines once every follow got its snapshot: a
// follow that is caught up has none of its own (a goroutine each would
// add 200).
func TestMultiplexFollowsCostNoGoroutine(t *testing.T) {
	cfg := baseConfig()
	cfg.MaxConnStreams = 1000
	e := startEnv(t, cfg)
	const n = 200
	players := make([]*player, n)
	for i := range players {
		id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
		seat, tok := e.join(t, id)
		players[i] = &player{e: e, id: id, seat: seat, token: tok}
	}
	st := muxOpen(t, e)
	send(t, st, muxFollow(n+1, players[0], 0)) // the stream's own goroutines are up
	muxItems(t, st, 1, ofRef(n+1))
	before := runtime.NumGoroutine()
	for i, p := range players {
		send(t, st, muxFollow(uint32(i+1), p, 0))
	}
	for _, it := range muxItems(t, st, n, func(*pb.MultiplexItem) bool { return true }) {
		if it.GetEvent().GetEvent().GetSnapshot() == nil {
			t.Fatalf("item %v, want a snapshot", it)
		}
	}
	// The follows' openers end right after their snapshots are ready.
	var added int
	for deadline := time.Now().Add(5 * time.Second); ; {
		added = runtime.NumGoroutine() - before
		if added < n/10 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if added >= n/10 {
		t.Fatalf("%d follows open added %d goroutines", n, added)
	}
	// They are live: a join on each table reaches its follow.
	for _, p := range players[:20] {
		e.join(t, p.id)
	}
	got := map[uint32]bool{}
	for len(got) < 20 {
		for _, it := range muxItems(t, st, 1, func(*pb.MultiplexItem) bool { return true }) {
			if ev := it.GetEvent(); ev != nil && ev.GetEvent().GetEvent().GetSeatNotice() != nil {
				got[ev.GetRef()] = true
			}
		}
	}
}

// TestMultiplexLeftAndEvicted follows seats whose follows end for their
// table's reasons, as StreamEvents ends for them: the player left
// (revocation), and the table left memory unstarted (eviction).
func TestMultiplexLeftAndEvicted(t *testing.T) {
	cfg := baseConfig()
	clk := clock.NewFake(time.Unix(1_800_000_000, 0))
	cfg.Clock, cfg.IdleTTL = clk, time.Hour
	e := startEnv(t, cfg)
	for _, c := range []struct {
		name string
		end  func(t *testing.T, p *player)
	}{
		{"left", func(t *testing.T, p *player) {
			if _, err := e.tables.LeaveTable(ctxT(t), &pb.LeaveTableRequest{TableId: p.id, SeatToken: p.token}); err != nil {
				t.Fatal(err)
			}
		}},
		{"evicted", func(t *testing.T, p *player) { clk.Advance(time.Hour) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, _ := e.create(t, &pb.TableSettings{Seed: make([]byte, 32)})
			seat, tok := e.join(t, id)
			p := &player{e: e, id: id, seat: seat, token: tok}
			plain, err := e.tables.StreamEvents(ctxT(t), &pb.StreamEventsRequest{TableId: id, SeatToken: tok})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := plain.Recv(); err != nil { // its snapshot
				t.Fatal(err)
			}
			st := muxOpen(t, e)
			send(t, st, muxFollow(1, p, 0))
			if it := muxItems(t, st, 1, ofRef(1))[0]; it.GetEvent().GetEvent().GetSnapshot() == nil {
				t.Fatalf("first item %v, want the snapshot", it)
			}
			c.end(t, p)
			var want error
			for want == nil {
				_, want = plain.Recv()
			}
			if errors.Is(want, io.EOF) {
				t.Fatal("StreamEvents ended without an error")
			}
			end := muxItems(t, st, 1, ends)[0].GetEnd()
			if got := status.FromProto(end.GetStatus()); end.GetRef() != 1 || !sameStatus(got, status.Convert(want)) {
				t.Fatalf("end %v, StreamEvents ended with %v", end, want)
			}
			if code := codes.Code(end.GetStatus().GetCode()); code == codes.OK {
				t.Fatalf("end %v, want an error", end)
			}
		})
	}
}

// TestMultiplexCatchUpFromStore restarts a durable server in the middle
// of a game, so that its table comes back from a stored snapshot, and
// follows every seat from before the start: the events before the
// snapshot are read from the store (by the follow's goroutine that
// catches up), the rest from the table's log, while another stream plays
// the game to its end. Every seat gets what StreamEvents gives it.
func TestMultiplexCatchUpFromStore(t *testing.T) {
	_, openStore := boltStore(t)
	bolt := openStore()
	cfg := riichiConfig()
	cfg.Store = bolt
	e, stop := startStoppableEnv(t, cfg)
	players, before := startGame(t, e, 21)
	// Play into the second round: the first is in a stored snapshot.
	ctx, cancel := context.WithCancel(ctxT(t))
	st, err := e.tables.Multiplex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	g := newMuxGame(st, players, []uint64{before, before, before, before})
	if err := g.follow(); err != nil {
		t.Fatal(err)
	}
	g.stopAfter = 1000
	if err := g.run(); err != nil {
		t.Fatal(err)
	}
	rounds := 0
	for _, ev := range players[0].events {
		if ev.GetRoundStarted() != nil {
			rounds++
		}
		if ev.GetGameEnded() != nil {
			t.Fatal("the game ended before the restart")
		}
	}
	if rounds < 2 {
		t.Fatalf("%d rounds before the restart, want 2", rounds)
	}
	cancel()
	from := make([]uint64, len(players))
	for i := range players {
		from[i] = g.lastSeq(i)
	}
	stop()
	if err := bolt.Close(); err != nil {
		t.Fatal(err)
	}
	bolt = openStore()
	defer bolt.Close()
	var snap *host.TableSnapshot
	if err := bolt.Load(context.Background(), func(_ host.TableRecord, sn *host.TableSnapshot, _ []host.Entry[table.Action]) error {
		snap = sn
		return nil
	}); err != nil || snap == nil {
		t.Fatalf("Load = %v with snapshot %v, want one", err, snap)
	}
	cfg.Store = bolt
	e2 := startEnv(t, cfg)

	// The watchers follow from before the start, in the store.
	watchers := make([]*player, len(players))
	for i, p := range players {
		p.e = e2
		watchers[i] = &player{e: e2, id: p.id, seat: p.seat, token: p.token}
	}
	w := newMuxGame(muxOpen(t, e2), watchers, []uint64{before, before, before, before})
	w.watch = true
	if err := w.follow(); err != nil {
		t.Fatal(err)
	}
	g2 := newMuxGame(muxOpen(t, e2), players, from)
	if err := g2.follow(); err != nil {
		t.Fatal(err)
	}
	for i, r := range g.due {
		if err := g2.send(i, r); err != nil {
			t.Fatal(err)
		}
	}
	done := make(chan error, 1)
	go func() { done <- w.run() }()
	if err := g2.run(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkSameAsStreamEvents(t, e2, watchers, before)
}

// TestMultiplexSlowReaderManyTables is TestMultiplexSlowReader with the
// seats of three tables on the slow stream, whose outbox fills long
// before their games end: the three games are played to their ends on
// streams of their own meanwhile, and the slow stream then gets every
// event of every seat, as StreamEvents gives them.
func TestMultiplexSlowReaderManyTables(t *testing.T) {
	defer server.SetMuxOutboxForTest(2 << 10)()
	e, other := startWithSecondConn(t, riichiConfig())
	slow := muxOn(t, other)
	var watchers []*player
	var from []uint64
	games := make([]*muxGame, 3)
	for k := range games {
		players, before := startGame(t, e, byte(30+k))
		for _, p := range players {
			watchers = append(watchers, &player{e: e, id: p.id, seat: p.seat, token: p.token})
			from = append(from, before)
			send(t, slow, muxFollow(uint32(len(watchers)), p, before))
		}
		games[k] = newMuxGame(muxOpen(t, e), players, []uint64{before, before, before, before})
		if err := games[k].follow(); err != nil {
			t.Fatal(err)
		}
	}
	errs := make(chan error, len(games))
	for _, g := range games {
		go func() { errs <- g.run() }()
	}
	for range games {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	w := newMuxGame(slow, watchers, from)
	w.watch = true
	if err := w.run(); err != nil {
		t.Fatal(err)
	}
	for k, g := range games {
		for i, p := range g.players {
			if got := len(watchers[4*k+i].events); got != len(p.events) {
				t.Fatalf("table %d seat %d: the slow stream got %d events, the game had %d", k, i, got, len(p.events))
			}
		}
	}
	for k := range games {
		checkSameAsStreamEvents(t, e, watchers[4*k:4*k+4], from[4*k])
	}
}
