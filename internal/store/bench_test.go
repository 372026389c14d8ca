package store_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/rusage"
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
	c.reset()
	return s, c
}

// cost measures what a benchmark's appends cost the process: CPU time
// (user and system, from getrusage, so the writer goroutine's syscalls
// count) per append and bbolt's page writes per commit.
type cost struct {
	s       *store.Bolt[move]
	c       *commits
	cpu     time.Duration
	writes  int64
	written int64
}

func startCost(s *store.Bolt[move], c *commits) *cost {
	return &cost{s: s, c: c, cpu: rusage.CPU(), writes: store.PageWrites(s), written: bytesWritten()}
}

// report closes the store (so that the work it defers, if any, is
// counted) and adds cpu-us/append and writes/commit (the page writes of
// every transaction, over the commits that acknowledged appends) to b's
// results.
func (k *cost) report(b *testing.B) { k.reportN(b, b.N) }

// reportN is report for a benchmark that made n appends.
func (k *cost) reportN(b *testing.B, n int) {
	if err := k.s.Close(); err != nil {
		b.Fatal(err)
	}
	cpu := rusage.CPU() - k.cpu
	if w := bytesWritten(); w > 0 {
		b.ReportMetric(float64(w-k.written)/1024/float64(n), "kB-written/append")
	}
	b.ReportMetric(float64(cpu.Microseconds())/float64(n), "cpu-us/append")
	if n := k.c.n.Load(); n > 0 {
		b.ReportMetric(float64(store.PageWrites(k.s)-k.writes)/float64(n), "writes/commit")
	}
}

// statusKiB is a field of /proc/self/status in KiB (RssFile: the mapped
// file's pages resident, RssAnon: the heap and stacks), false where that
// is not known.
func statusKiB(field string) (int64, bool) {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}

// bytesWritten is how many bytes the process has written (wchar of
// /proc/self/io: the bytes of its write calls), 0 where that is not known.
func bytesWritten() int64 {
	raw, err := os.ReadFile("/proc/self/io")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(raw)) {
		if v, ok := strings.CutPrefix(line, "wchar: "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			return n
		}
	}
	return 0
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
	const tables = 1000
	// 8,192 entries: the journal's bound at up to 2,048 tables; 65,536:
	// its bound at 16,384 tables and more (defaultMove).
	for _, entries := range []int{8 << 10, 64 << 10} {
		b.Run(fmt.Sprintf("entries=%d", entries), func(b *testing.B) {
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
		})
	}
}

// snapState and snapEvents are the sizes of a round-end snapshot in the
// human-pace benchmarks: about 30 kB in all, as a riichi round's.
const snapState, snapEvents = 8 << 10, 22 << 10

// pacedSnapEvery is how many appends come, in all, per snapshot: a
// round of a hundred actions or so.
const pacedSnapEvery = 100

// pacedRounds is how many rounds the tables of the human-pace
// benchmarks have played before they start: the snapshots and events
// of a game under way.
const pacedRounds = 3

// playedRounds saves rounds snapshots of ~30 kB for each of tables t0,
// t1, ... (of prefill entries, openTables), as at the ends of their
// first rounds.
func playedRounds(b *testing.B, s *store.Bolt[move], tables, rounds int) {
	var wg sync.WaitGroup
	work := make(chan int)
	for range 64 {
		wg.Go(func() {
			snap := host.TableSnapshot{State: make([]byte, snapState), Events: make([]byte, snapEvents)}
			for i := range work {
				for r := range rounds {
					snap.Entries = uint64((r + 1) * prefill / (rounds + 1))
					snap.State[0], snap.Events[0] = byte(i), byte(r)
					if err := s.SaveSnapshot(context.Background(), fmt.Sprint("t", i), snap); err != nil {
						b.Error(err)
					}
				}
			}
		})
	}
	for i := range tables {
		work <- i
	}
	close(work)
	wg.Wait()
}

// reset forgets the commits counted so far.
func (c *commits) reset() {
	c.n.Store(0)
	c.requests.Store(0)
}

// humanLoad drives a store as tables at human pace drive it: appends at
// rate a second in all (exponential gaps, an open loop), each of one
// entry to one of the tables in turn, and after every snapEvery-th a
// SaveSnapshot of that table (0: none). It returns each append's time to
// durable, in the order they started, and their start times.
type humanLoad struct {
	s         *store.Bolt[move]
	tables    int
	rate      int
	snapEvery int
	counts    []atomic.Uint64 // entries appended per table, past prefill

	lat    []time.Duration // of each append
	starts []time.Duration // since the load began
	snaps  []time.Duration // of each SaveSnapshot, in no order
	snapMu sync.Mutex

	entry host.Entry[move] // what each append writes
}

func newHumanLoad(s *store.Bolt[move], tables, rate, snapEvery int) *humanLoad {
	return &humanLoad{s: s, tables: tables, rate: rate, snapEvery: snapEvery, counts: make([]atomic.Uint64, tables),
		entry: host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "0123456789abcdef"}}
}

// snapshot is a SaveSnapshot of size state+events bytes for table i,
// covering every entry appended so far.
func (h *humanLoad) snapshot(b *testing.B, rng *rand.Rand, i int) {
	id := fmt.Sprint("t", i)
	snap := host.TableSnapshot{Entries: prefill + h.counts[i].Load(), State: make([]byte, snapState), Events: make([]byte, snapEvents)}
	for j := range snap.State {
		snap.State[j] = byte(rng.Uint32())
	}
	for j := range snap.Events {
		snap.Events[j] = byte(rng.Uint32())
	}
	t := time.Now()
	if err := h.s.SaveSnapshot(context.Background(), id, snap); err != nil {
		b.Error(err)
	}
	d := time.Since(t)
	h.snapMu.Lock()
	h.snaps = append(h.snaps, d)
	h.snapMu.Unlock()
}

// run makes n appends and waits for them (and their snapshots).
func (h *humanLoad) run(b *testing.B, n int, extra func(start time.Time, wg *sync.WaitGroup)) time.Duration {
	e := h.entry
	rng := rand.New(rand.NewPCG(1, 2))
	h.lat = make([]time.Duration, n)
	h.starts = make([]time.Duration, n)
	var wg sync.WaitGroup
	start := time.Now()
	if extra != nil {
		extra(start, &wg)
	}
	at := start
	for i := range n {
		at = at.Add(time.Duration(rng.ExpFloat64() * float64(time.Second) / float64(h.rate)))
		time.Sleep(time.Until(at))
		table := i % h.tables
		snap := h.snapEvery > 0 && i%h.snapEvery == h.snapEvery-1
		seed := rng.Uint64()
		wg.Go(func() {
			t := time.Now()
			if err := h.s.Append(context.Background(), fmt.Sprint("t", table), e); err != nil {
				b.Error(err)
			}
			h.lat[i] = time.Since(t)
			h.starts[i] = t.Sub(start)
			h.counts[table].Add(1)
			if snap {
				h.snapshot(b, rand.New(rand.NewPCG(seed, 3)), table)
			}
		})
	}
	wg.Wait()
	return time.Since(start)
}

// quantile returns the q-quantile of ds (sorted in place).
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	slices.Sort(ds)
	return ds[min(len(ds)-1, int(q*float64(len(ds))))]
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// BenchmarkHumanPace is 1,000 tables at human pace, as the server's load
// at 1,000 and 5,000 tables under bots that think a second or more:
// rate appends a second in all, a ~30 kB snapshot after every
// pacedSnapEvery-th. b.N is the number of appends (run it with
// -benchtime=Nx for a run of N/rate seconds). It reports the process CPU
// (getrusage: the writer's syscalls count) per append, the commits a
// second and the time from Append to durable at the median and the 99th
// percentile.
func BenchmarkHumanPace(b *testing.B) {
	const tables = 1000
	for _, rate := range []int{300, 1500} {
		b.Run(fmt.Sprintf("rate=%d", rate), func(b *testing.B) {
			s, c := openTables(b, tables)
			playedRounds(b, s, tables, pacedRounds)
			c.reset()
			h := newHumanLoad(s, tables, rate, pacedSnapEvery)
			b.ResetTimer()
			k := startCost(s, c)
			took := h.run(b, b.N, nil)
			b.ReportMetric(float64(c.n.Load())/took.Seconds(), "commits/s")
			b.ReportMetric(ms(quantile(h.lat, 0.5)), "p50-ms")
			b.ReportMetric(ms(quantile(h.lat, 0.99)), "p99-ms")
			b.ReportMetric(ms(quantile(h.snaps, 0.99)), "snap-p99-ms")
			k.report(b)
		})
	}
}

// BenchmarkScalePace is the store's load at 10,000 tables at human pace
// (bots thinking 1 to 4 s a decision, 40,000 seats): 2,000 appends a
// second in all, spread over the tables in turn, each of one entry of
// about 150 bytes (journal value and all), and a ~30 kB snapshot after
// every pacedSnapEvery-th; the tables have played a round (a file of
// some 300 MB). b.N is the number of appends (-benchtime 60000x is a run
// of 30 s). It reports what BenchmarkHumanPace does, the allocations
// per append (of the whole process, the load's goroutines too) and the
// file's pages resident at the end of the load (RssFile).
func BenchmarkScalePace(b *testing.B) {
	const tables, rate, rounds = 10000, 2000, 1
	s, c := openTables(b, tables)
	playedRounds(b, s, tables, rounds)
	c.reset()
	h := newHumanLoad(s, tables, rate, pacedSnapEvery)
	// A request id of 100 bytes: entries the size the brief of the
	// scale work names (100 to 300 bytes).
	h.entry.RequestID = strings.Repeat("r", 100)
	b.ReportAllocs()
	b.ResetTimer()
	k := startCost(s, c)
	stop := loadProfile(b)
	took := h.run(b, b.N, nil)
	stop()
	if n, ok := statusKiB("RssFile"); ok {
		b.ReportMetric(float64(n)/1024, "rss-file-MiB")
	}
	b.ReportMetric(float64(c.n.Load())/took.Seconds(), "commits/s")
	b.ReportMetric(ms(quantile(h.lat, 0.5)), "p50-ms")
	b.ReportMetric(ms(quantile(h.lat, 0.99)), "p99-ms")
	b.ReportMetric(ms(quantile(h.snaps, 0.99)), "snap-p99-ms")
	k.report(b)
	b.ReportMetric(ms(store.MoveChunkMax(s)), "move-chunk-max-ms")
}

// loadProfile writes a CPU profile of the load alone (not of the setup,
// which -cpuprofile counts too) to the file named by
// STORE_BENCH_CPUPROFILE, if it is set, and the allocations of the load
// alone to the file named by STORE_BENCH_MEMPROFILE (the profile of all
// allocations at its end, and at its start to the same name with
// ".start": go tool pprof -base NAME.start NAME); the function it
// returns stops them.
func loadProfile(b *testing.B) func() {
	stopMem := memProfile(b, os.Getenv("STORE_BENCH_MEMPROFILE"))
	path := os.Getenv("STORE_BENCH_CPUPROFILE")
	if path == "" {
		return stopMem
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		stopMem()
	}
}

// memProfile writes the profile of every allocation so far to
// path+".start" and, when the function it returns is called, to path
// (nothing if path is empty). A collection first: the profile is as of
// the last one.
func memProfile(b *testing.B, path string) func() {
	if path == "" {
		return func() {}
	}
	write := func(to string) {
		runtime.GC()
		f, err := os.Create(to)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			b.Fatal(err)
		}
	}
	write(path + ".start")
	return func() { write(path) }
}

// BenchmarkSnapshotBurst is 2,000 tables that end their rounds together:
// 2,000 SaveSnapshots of ~30 kB within burst (10 s), each at a random
// moment, while the tables go on appending at rate a second (an open
// loop, as BenchmarkHumanPace, without its own snapshots). It runs
// 2 s + burst + 2 s whatever b.N (run it with -benchtime=1x) and
// reports the append latency at the 99th percentile during the burst
// and outside it, the worst, and the snapshots' 99th percentile.
func BenchmarkSnapshotBurst(b *testing.B) {
	const tables, snaps = 2000, 2000
	const before, burst, after = 2 * time.Second, 10 * time.Second, 2 * time.Second
	for _, rate := range []int{300, 1500} {
		b.Run(fmt.Sprintf("rate=%d", rate), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				s, c := openTables(b, tables)
				playedRounds(b, s, tables, pacedRounds)
				c.reset()
				b.StartTimer()
				h := newHumanLoad(s, tables, rate, 0)
				k := startCost(s, c)
				n := int((before + burst + after).Seconds() * float64(rate))
				h.run(b, n, func(start time.Time, wg *sync.WaitGroup) {
					rng := rand.New(rand.NewPCG(3, 4))
					for i := range snaps {
						at := start.Add(before + time.Duration(rng.Int64N(int64(burst))))
						seed := rng.Uint64()
						wg.Go(func() {
							time.Sleep(time.Until(at))
							h.snapshot(b, rand.New(rand.NewPCG(seed, 5)), i)
						})
					}
				})
				var in, out []time.Duration
				for i, d := range h.lat {
					if st := h.starts[i]; st >= before && st < before+burst {
						in = append(in, d)
					} else {
						out = append(out, d)
					}
				}
				b.ReportMetric(ms(quantile(in, 0.99)), "burst-p99-ms")
				b.ReportMetric(ms(quantile(in, 0.5)), "burst-p50-ms")
				b.ReportMetric(ms(quantile(out, 0.99)), "calm-p99-ms")
				b.ReportMetric(ms(quantile(h.lat, 1)), "worst-ms")
				b.ReportMetric(ms(quantile(h.snaps, 0.99)), "snap-p99-ms")
				b.ReportMetric(float64(n), "appends")
				// CPU of the whole run (snapshots too) per append.
				k.reportN(b, n)
			}
		})
	}
}
