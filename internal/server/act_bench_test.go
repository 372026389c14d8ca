package server_test

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/rusage"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// BenchmarkServeAct plays east-only games on the real engine, each with
// four gRPC clients on one loopback connection that discard what they
// draw and pass claims (player.simple), every seat following its stream:
// the whole serving path of an action - the Act call, the table, the
// memory store, the fan-out to four streams and their gRPC sends - plus
// the clients' own work, all in this process. One op is one game; the
// figures per accepted action are ns/action and allocs/action.
func BenchmarkServeAct(b *testing.B) { benchServeAct(b, nil, nil) }

// BenchmarkServeActTimed is BenchmarkServeAct with the standard turn and
// claim timers (20 s, 8 s: the clients never let them run out), so that
// every decision point arms the table's timer as it does in play.
func BenchmarkServeActTimed(b *testing.B) {
	d := server.StandardDefaults
	benchServeAct(b, durationpb.New(d.TurnTime), durationpb.New(d.ClaimTime))
}

func benchServeAct(b *testing.B, turn, claim *durationpb.Duration) {
	s := servertest.Start(b, riichiConfig().server())
	conn := s.Dial()
	defer conn.Close()
	e := &env{srv: s.Server, tables: pb.NewTableServiceClient(conn)}
	ctx := context.Background()
	var acts int
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	cpu0 := rusage.CPU()
	start := time.Now()
	for i := range b.N {
		r, err := e.tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{
			Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seed(byte(i)), ClaimDwell: durationpb.New(0),
			TurnTime: turn, ClaimTime: claim}})
		if err != nil {
			b.Fatal(err)
		}
		id := r.GetTable().GetTableId()
		players := make([]*player, 4)
		for j := range players {
			jr, err := e.tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: id, Name: "p"})
			if err != nil {
				b.Fatal(err)
			}
			players[j] = &player{e: e, id: id, seat: jr.GetSeat(), token: jr.GetSeatToken()}
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for j, p := range players {
			wg.Go(func() { errs[j] = p.simple(ctx, 1) })
		}
		wg.Wait()
		for j, err := range errs {
			if err != nil {
				b.Fatalf("seat %d: %v", j, err)
			}
			acts += players[j].acts
		}
	}
	elapsed := time.Since(start)
	cpu := rusage.CPU() - cpu0
	runtime.ReadMemStats(&ms1)
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(acts), "cpu-ns/action")
	b.ReportMetric(float64(elapsed.Nanoseconds())/float64(acts), "ns/action")
	b.ReportMetric(float64(ms1.Mallocs-ms0.Mallocs)/float64(acts), "allocs/action")
	b.ReportMetric(float64(ms1.TotalAlloc-ms0.TotalAlloc)/float64(acts), "B/action")
}

// BenchmarkTableMemory plays 20 hanchan tables of three bots and a
// player the timers play to their end and reports the heap each finished table still holds: the host's log of
// the game's events and the viewers' indexes, the actions since the last
// snapshot, the seats, the engine and its record - the most a table of
// this game holds in the host, as it grows through the game. The store
// keeps nothing (a durable store keeps it on disk, not in the heap), and
// a first table is played before measuring, so that what is loaded once
// (the judge's tables) is not counted.
func BenchmarkTableMemory(b *testing.B) {
	const tables = 20
	play := func(srv *server.Server, n int, seed0 byte) {
		ctx := context.Background()
		for i := range n {
			// One player who never acts: the timers play the seat, each
			// turn a step of its own, so that the table stores its
			// snapshots between rounds as with people.
			r, err := server.CreateForTest(ctx, srv, &pb.CreateTableRequest{Settings: &pb.TableSettings{
				FillWithBots: true, Rules: pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN, Seed: seed(seed0 + byte(i)),
				TurnTime: durationpb.New(time.Millisecond), ClaimTime: durationpb.New(time.Millisecond), ClaimDwell: durationpb.New(0),
			}})
			if err != nil {
				b.Fatal(err)
			}
			id := r.GetTable().GetTableId()
			if _, _, err := riichiHost(srv).Join(ctx, id, "p", nil); err != nil {
				b.Fatal(err)
			}
			if err := riichiHost(srv).Start(ctx, id, r.GetOwnerToken()); err != nil {
				b.Fatal(err)
			}
		}
		for playing := true; playing; {
			playing = false
			riichiHost(srv).Each(func(in host.Info) { playing = playing || in.State != host.Finished })
			time.Sleep(10 * time.Millisecond)
		}
	}
	for range b.N {
		cfg := riichiConfig()
		cfg.Store = discard{}
		srv, err := newServer(cfg)
		if err != nil {
			b.Fatal(err)
		}
		play(srv, 1, 100)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		play(srv, tables, 0)
		runtime.GC()
		runtime.ReadMemStats(&m1)
		b.ReportMetric(float64(m1.HeapAlloc-m0.HeapAlloc)/tables, "B/table")
		srv.Close()
	}
}
