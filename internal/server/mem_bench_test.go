package server_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	rsmcr "github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
)

// BenchmarkTableMemoryLate is the heap a playing table holds late in its
// game, as a table of four players holds it: every seat has joined,
// follows its stream and sends each action with a request id (so the
// dedupe windows fill), and the store keeps nothing in the heap (as a
// durable one keeps it on disk) but takes every snapshot, so the host
// archives the events of the rounds before. Each table is first played
// to its end on a host of its own to count its actions, then again, on
// the host measured, up to actions/10 before its end: all its rounds but
// the last are behind it. B/table is the live heap of the tables so
// measured beyond that of the same server before them.
//
// stack-B/table is the goroutine stacks beside (the four streams' here, a
// server's gRPC handlers' in production). MEMPROFILE=file writes a heap
// profile, every allocation sampled, taken while the tables are held (go
// tool pprof -sample_index=inuse_space); with MEMPROFILE_COARSE=1 one
// allocation in 64 KB is, which keeps the timing of a run without one.
//
// The -finished cases play the tables to their end instead: a finished
// table stays in memory for --finished-ttl (10 minutes) for its streams
// and readers, a tenth of the tables of a long soak.
func BenchmarkTableMemoryLate(b *testing.B) {
	for _, finished := range []bool{false, true} {
		suffix := ""
		if finished {
			suffix = "-finished"
		}
		b.Run("riichi-hanchan"+suffix, func(b *testing.B) { lateRiichi(b, finished) })
		b.Run("mcr-16"+suffix, func(b *testing.B) { lateMCR(b, finished) })
	}
}

// lateRiichi is BenchmarkTableMemoryLate of riichi hanchan tables.
func lateRiichi(b *testing.B, finished bool) {
	const tables = 40
	{
		newSrv := func() (*server.Server, error) {
			c := riichi.Standard()
			c.Store = discardStore[table.Action]{}
			return server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(c)}})
		}
		settings := func(i int) *pb.TableSettings {
			return &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_HANCHAN, Seed: seed(byte(i))}
		}
		hostOf := func(s *server.Server) *riichi.Host { return riichiHost(s) }
		bot := riichi.Standard().Bot
		lateMemory(b, tables, finished, newSrv, settings, hostOf, func() host.Bot[table.Action, table.View] { return bot() })
	}
}

// lateMCR is BenchmarkTableMemoryLate of MCR tables of 16 hands.
func lateMCR(b *testing.B, finished bool) {
	const tables = 40
	{
		newSrv := func() (*server.Server, error) {
			return server.New(server.Config{RuleSets: []ruleset.RuleSet{rsmcr.New(rsmcr.Config{Store: discardStore[tbl.Action]{}})}})
		}
		settings := func(i int) *pb.TableSettings { return mcrSettings(16, seed(byte(i))) }
		hostOf := func(s *server.Server) *host.Host[tbl.Action, tbl.View, tbl.Body] {
			return s.Tables(pb.RuleSet_RULE_SET_MCR).(*rsmcr.Tables).Host()
		}
		lateMemory(b, tables, finished, newSrv, settings, hostOf, func() host.Bot[tbl.Action, tbl.View] { return &rsmcr.TableBot{} })
	}
}

// lateMemory runs BenchmarkTableMemoryLate for one rule set: the tables
// played to their end if finished.
func lateMemory[A comparable, V, B any](b *testing.B, tables int, finished bool, newSrv func() (*server.Server, error), settings func(i int) *pb.TableSettings,
	hostOf func(*server.Server) *host.Host[A, V, B], bot func() host.Bot[A, V]) {
	ctx := context.Background()
	if os.Getenv("MEMPROFILE") != "" {
		// Every allocation sampled: the tables measured hold a few MB.
		defer func(r int) { runtime.MemProfileRate = r }(runtime.MemProfileRate)
		runtime.MemProfileRate = 1
		if os.Getenv("MEMPROFILE_COARSE") != "" {
			runtime.MemProfileRate = 64 << 10
		}
	}
	// The length of each table's game, played alone to its end.
	length := make([]int, tables)
	{
		srv, err := newSrv()
		if err != nil {
			b.Fatal(err)
		}
		for i := range tables {
			lt := newLateTable(b, srv, hostOf(srv), settings(i), bot())
			length[i] = lt.play(b, -1)
			lt.stop()
		}
		srv.Close()
	}
	var perTable, stack float64
	for range b.N {
		srv, err := newSrv()
		if err != nil {
			b.Fatal(err)
		}
		h := hostOf(srv)
		// A first table, played to its end and gone, loads what is loaded
		// once (the judge's tables, the bot's).
		lt := newLateTable(b, srv, h, settings(tables), bot())
		lt.play(b, -1)
		lt.stop()
		var m0, m1 runtime.MemStats
		// Two collections, as for m1: what sync.Pools hold (a flate
		// writer of the recorders is hundreds of KB) goes at the second.
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m0)
		held := make([]*lateTable[A, V, B], tables)
		for i := range tables {
			held[i] = newLateTable(b, srv, h, settings(i), bot())
			n := length[i] - length[i]/10
			if finished {
				n = -1
			}
			held[i].play(b, n)
		}
		// The last snapshot writes and stream sends finish.
		time.Sleep(100 * time.Millisecond)
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&m1)
		perTable = float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc)) / float64(tables)
		stack = float64(int64(m1.StackInuse)-int64(m0.StackInuse)) / float64(tables)
		if f := os.Getenv("MEMPROFILE"); f != "" {
			w, err := os.Create(f)
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.Lookup("heap").WriteTo(w, 0); err != nil {
				b.Fatal(err)
			}
			w.Close()
		}
		for _, lt := range held {
			want := host.Playing
			if finished {
				want = host.Finished
			}
			if in, err := h.Get(ctx, lt.id); err != nil || in.State != want {
				b.Fatalf("table %s: %v, %v: want %v", lt.id, in.State, err, want)
			}
			lt.stop()
		}
		runtime.KeepAlive(held)
		srv.Close()
	}
	b.ReportMetric(perTable, "B/table")
	b.ReportMetric(stack, "stack-B/table")
	b.ReportMetric(float64(sum(length))/float64(tables), "actions/game")
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// lateTable is a table of four players, each following its stream.
type lateTable[A comparable, V, B any] struct {
	h      *host.Host[A, V, B]
	id     string
	tokens [4]string
	bot    host.Bot[A, V]
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

func newLateTable[A comparable, V, B any](b *testing.B, srv *server.Server, h *host.Host[A, V, B], set *pb.TableSettings, bot host.Bot[A, V]) *lateTable[A, V, B] {
	ctx := context.Background()
	r, err := server.CreateForTest(ctx, srv, &pb.CreateTableRequest{Settings: set})
	if err != nil {
		b.Fatal(err)
	}
	lt := &lateTable[A, V, B]{h: h, id: r.GetTable().GetTableId(), bot: bot}
	for s := range lt.tokens {
		if _, lt.tokens[s], err = h.Join(ctx, lt.id, "p", nil); err != nil {
			b.Fatal(err)
		}
	}
	sctx, cancel := context.WithCancel(ctx)
	lt.cancel = cancel
	for s := range lt.tokens {
		lt.wg.Go(func() {
			_ = h.Follow(sctx, lt.id, lt.tokens[s], 0, func(host.Item[V, B]) error { return nil })
		})
	}
	return lt
}

// play has the bot play every seat's actions, each sent as the seat's
// with a request id, until the game ends or after n actions (n < 0: to
// the end). It returns the actions played.
func (lt *lateTable[A, V, B]) play(b *testing.B, n int) int {
	ctx := context.Background()
	played := 0
	for n < 0 || played < n {
		var a A
		seat := -1
		over := false
		err := lt.h.Inspect(ctx, lt.id, func(g host.Game[A, V, B]) error {
			if over = g.Over(); over {
				return nil
			}
			p := g.Pending()
			if len(p.Seats) == 0 {
				return nil
			}
			seat = p.Seats[0]
			var err error
			if a, err = lt.bot.Act(seat, g.View(seat)); err != nil {
				a = g.Default(seat)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if over {
			return played
		}
		if seat < 0 {
			// The host plays the system's step itself; a round pause of 0
			// plays it at once.
			time.Sleep(time.Millisecond)
			continue
		}
		last, err := lt.h.SeatSeq(ctx, lt.id, lt.tokens[seat])
		if err != nil {
			b.Fatal(err)
		}
		if _, err := lt.h.Act(ctx, lt.id, host.Request[A]{Token: lt.tokens[seat], LastSeq: last, RequestID: fmt.Sprintf("r%08d", played), Action: a}); err != nil {
			b.Fatalf("table %s seat %d action %d: %v", lt.id, seat, played, err)
		}
		played++
	}
	return played
}

// stop ends the table's streams.
func (lt *lateTable[A, V, B]) stop() {
	lt.cancel()
	lt.wg.Wait()
}

// discardStore is a store that keeps nothing, of any rule set.
type discardStore[A any] struct{}

func (discardStore[A]) Create(context.Context, host.TableRecord) error         { return nil }
func (discardStore[A]) Append(context.Context, string, ...host.Entry[A]) error { return nil }
func (discardStore[A]) SaveSnapshot(context.Context, string, host.TableSnapshot) error {
	return nil
}
func (discardStore[A]) LoadEntries(context.Context, string, uint64) ([]host.Entry[A], error) {
	return nil, nil
}
func (discardStore[A]) LoadEvents(context.Context, string, uint64) ([]byte, error) { return nil, nil }
func (discardStore[A]) Load(context.Context, func(host.TableRecord, *host.TableSnapshot, []host.Entry[A]) error) error {
	return nil
}
func (discardStore[A]) Finish(context.Context, string, time.Time) error { return nil }
func (discardStore[A]) LoadTable(_ context.Context, id string) (host.TableRecord, *host.TableSnapshot, []host.Entry[A], error) {
	return host.TableRecord{}, nil, nil, fmt.Errorf("table %s: %w", id, host.ErrNoTable)
}
func (discardStore[A]) Delete(context.Context, string) error          { return nil }
func (discardStore[A]) Prune(context.Context, time.Time) (int, error) { return 0, nil }
