package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// BenchmarkAppend is one table writing one entry at a time: each Append
// waits for its own fsync, the latency an action pays.
func BenchmarkAppend(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		b.Fatal(err)
	}
	e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
	b.ResetTimer()
	for range b.N {
		if err := s.Append(ctx, "t", e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendTables is 64 tables writing at once (RunParallel with
// parallelism 32 per core): the group commit shares fsyncs between them.
// ns/op is per entry, over all tables.
func BenchmarkAppendTables(b *testing.B) {
	s := open(b, filepath.Join(b.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	const tables = 64
	for i := range tables {
		if err := s.Create(ctx, host.TableRecord{ID: fmt.Sprint("t", i)}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int32
	e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
	b.SetParallelism(32)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprint("t", next.Add(1)%tables)
		for pb.Next() {
			if err := s.Append(ctx, id, e); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// commits counts the store's transactions.
type commits struct{ n, requests atomic.Int64 }

func (*commits) Appended(time.Duration) {}
func (c *commits) Committed(_ time.Duration, requests int) {
	c.n.Add(1)
	c.requests.Add(int64(requests))
}

// prefill is how many entries each table of openTables has before a
// benchmark appends: tables in the middle of a game, whose logs span
// a few pages.
const prefill = 200

// openTables opens a store with n tables t0, t1, ... of prefill entries
// each and a commit counter.
func openTables(b *testing.B, n int, opts ...store.Option) (*store.Bolt[move], *commits) {
	c := &commits{}
	path := filepath.Join(b.TempDir(), "a.db")
	s, err := store.Open[move](path, moveCodec{}, append(opts, store.WithObserver(c))...)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	es := make([]host.Entry[move], prefill)
	for i := range es {
		es[i] = host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, uint8(i)}, RequestID: "0123456789abcdef"}
	}
	// In parallel: the group commit makes short work of it.
	var wg sync.WaitGroup
	work := make(chan int)
	for range 64 {
		wg.Go(func() {
			for i := range work {
				id := fmt.Sprint("t", i)
				if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
					b.Error(err)
				}
				if err := s.Append(ctx, id, es...); err != nil {
					b.Error(err)
				}
			}
		})
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
	// Closed and opened again, so that no work of the setup (a journal
	// to move) is left for the benchmark.
	if err := s.Close(); err != nil {
		b.Fatal(err)
	}
	if s, err = store.Open[move](path, moveCodec{}, append(opts, store.WithObserver(c))...); err != nil {
		b.Fatal(err)
	}
	c.n.Store(0)
	c.requests.Store(0)
	return s, c
}

// cost measures what a benchmark's appends cost the process: CPU time
// (user and system, from getrusage, so the writer goroutine's syscalls
// count) per append and bbolt's page writes per commit.
type cost struct {
	s      *store.Bolt[move]
	c      *commits
	cpu    time.Duration
	writes int64
}

func startCost(s *store.Bolt[move], c *commits) *cost {
	return &cost{s: s, c: c, cpu: cpuTime(), writes: store.PageWrites(s)}
}

// report closes the store (so that the work it defers, if any, is
// counted) and adds cpu-us/append and writes/commit (the page writes of
// every transaction, over the commits that acknowledged appends) to b's
// results.
func (k *cost) report(b *testing.B) {
	if err := k.s.Close(); err != nil {
		b.Fatal(err)
	}
	cpu := cpuTime() - k.cpu
	b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-us/append")
	if n := k.c.n.Load(); n > 0 {
		b.ReportMetric(float64(store.PageWrites(k.s)-k.writes)/float64(n), "writes/commit")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkAppendConcurrent is 1, 100 and 1,000 tables each appending one
// entry at a time, as fast as their commits come back: appends/s over all
// tables and the commits (two fsyncs each) per append.
func BenchmarkAppendConcurrent(b *testing.B) {
	for _, tables := range []int{1, 100, 1000} {
		for _, linger := range []time.Duration{0, store.DefaultLinger} {
			b.Run(fmt.Sprintf("tables=%d/linger=%v", tables, linger), func(b *testing.B) {
				s, c := openTables(b, tables, store.WithLinger(linger))
				defer s.Close()
				e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
				var next atomic.Int64
				var wg sync.WaitGroup
				b.ResetTimer()
				k := startCost(s, c)
				start := time.Now()
				for i := range tables {
					wg.Go(func() {
						id := fmt.Sprint("t", i)
						for next.Add(1) <= int64(b.N) {
							if err := s.Append(context.Background(), id, e); err != nil {
								b.Error(err)
								return
							}
						}
					})
				}
				wg.Wait()
				b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "appends/s")
				b.ReportMetric(float64(c.n.Load())/float64(b.N), "commits/append")
				k.report(b)
			})
		}
	}
}

// BenchmarkAppendPaced is 1,000 tables appending at human pace: together
// rate appends a second, each at a random moment (an open loop, as people
// act whether or not the store kept up), b.N appends in all. It reports
// the commits per append and the mean and worst time to durable.
func BenchmarkAppendPaced(b *testing.B) {
	const tables = 1000
	for _, rate := range []int{250, 2500} {
		for _, linger := range []time.Duration{0, store.DefaultLinger} {
			b.Run(fmt.Sprintf("rate=%d/linger=%v", rate, linger), func(b *testing.B) {
				s, c := openTables(b, tables, store.WithLinger(linger))
				defer s.Close()
				e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
				rng := rand.New(rand.NewPCG(1, 2))
				var wg sync.WaitGroup
				var total, worst atomic.Int64
				b.ResetTimer()
				k := startCost(s, c)
				start := time.Now()
				at := start
				for i := range b.N {
					// Exponential gaps: arrivals of many independent players.
					at = at.Add(time.Duration(rng.ExpFloat64() * float64(time.Second) / float64(rate)))
					time.Sleep(time.Until(at))
					wg.Go(func() {
						t := time.Now()
						if err := s.Append(context.Background(), fmt.Sprint("t", i%tables), e); err != nil {
							b.Error(err)
						}
						d := int64(time.Since(t))
						total.Add(d)
						for w := worst.Load(); d > w && !worst.CompareAndSwap(w, d); w = worst.Load() {
						}
					})
				}
				wg.Wait()
				b.ReportMetric(float64(c.n.Load())/float64(b.N), "commits/append")
				b.ReportMetric(float64(total.Load())/float64(b.N)/1e6, "ms/durable")
				b.ReportMetric(float64(worst.Load())/1e6, "ms/worst")
				k.report(b)
			})
		}
	}
}

// BenchmarkLoadEntriesFullJournal is a reader of one table while the
// journal holds entries of 1,000 tables, as many as it holds before the
// writer moves it (its default): the scan of the journal a reader pays.
func BenchmarkLoadEntriesFullJournal(b *testing.B) {
	const tables, entries = 1000, 8 << 10
	s, _ := openTables(b, tables, store.WithJournalMove(time.Hour, 1<<30))
	defer s.Close()
	ctx := context.Background()
	e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}
	var wg sync.WaitGroup
	for i := range tables {
		wg.Go(func() {
			for range entries / tables {
				if err := s.Append(ctx, fmt.Sprint("t", i), e); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	n := store.JournalLen(s)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		es, err := s.LoadEntries(ctx, "t7", prefill)
		if err != nil || len(es) != entries/tables {
			b.Fatalf("LoadEntries = %d entries, %v", len(es), err)
		}
	}
	b.ReportMetric(float64(n), "journal-entries")
}
