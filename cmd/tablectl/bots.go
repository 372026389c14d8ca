package main

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

func init() {
	commands["bots"] = command{summary: "load-test a server: N tables of four bot clients over gRPC, M games each", run: runBots}
}

// botsOptions are the command line of `tablectl bots`.
type botsOptions struct {
	addr          string
	tables, games int
	kind          string // efficient or random
	rules         string // hanchan, tonpuu, sichuan, mcr or classical
	hands         int    // mcr: hands in a game
	turn, claim   time.Duration
	pause         time.Duration
	seed          string
	timeout       time.Duration
	every         time.Duration
	dwell         time.Duration
	think         thinkRange    // a random delay before every decision
	conns         int           // client connections the seats share; 0: one per seat (with mux: per table)
	mux           bool          // the seats of a connection share one Multiplex stream
	ramp          float64       // new tables a second; 0: all at once
	duration      time.Duration // duration mode: new games until this is up; 0: --games each
	warmup        time.Duration // the steady latencies leave out the run's first warmup; 0: none
	metricsAddr   string        // the server's metrics listener, for its CPU and RSS
	cpuProfile    string        // write the load generator's CPU profile here
	memProfile    string        // and its heap profile at the end
	procs         int           // GOMAXPROCS of the load generator; 0: Go's default
	gogc          int           // GOGC of the load generator during the run; 0: as the environment says
}

// loadGOGC is the load generator's GOGC unless --gogc or GOGC says: each of
// its collections slows its reading of every connection, and that wait
// counts as the server's latency in its figures. At 10,000 tables 400
// against Go's 100 cut the 2 s intervals whose act p99 passed 100 ms from
// 13-14 to 5-8 of 41, for twice the load generator's memory
// (docs/performance.md, Where it stands).
const loadGOGC = 400

// thinkRange is a closed interval of durations, "MIN..MAX" or one
// duration.
type thinkRange struct{ min, max time.Duration }

func (r *thinkRange) String() string {
	if r.min == r.max {
		return r.min.String()
	}
	return r.min.String() + ".." + r.max.String()
}

func (r *thinkRange) Set(v string) error {
	lo, hi, ok := strings.Cut(v, "..")
	if !ok {
		hi = lo
	}
	a, err := time.ParseDuration(lo)
	if err != nil {
		return err
	}
	b, err := time.ParseDuration(hi)
	if err != nil {
		return err
	}
	if a < 0 || b < a {
		return fmt.Errorf("want 0 <= MIN <= MAX, have %v..%v", a, b)
	}
	r.min, r.max = a, b
	return nil
}

// draw is a delay in the range, uniform, from rng.
func (r thinkRange) draw(rng *rand.Rand) time.Duration {
	if r.max <= r.min {
		return r.min
	}
	return r.min + time.Duration(rng.Int64N(int64(r.max-r.min)+1))
}

// parseRate reads "500/s" or "500" as a rate a second.
func parseRate(v string) (float64, error) {
	n, err := strconv.ParseFloat(strings.TrimSuffix(v, "/s"), 64)
	if err != nil || n < 0 || math.IsInf(n, 0) || math.IsNaN(n) {
		return 0, fmt.Errorf("--ramp %q: want a rate such as 500/s", v)
	}
	return n, nil
}

// botsSummary is the last line of the output: exactly these fields, in
// this order.
type botsSummary struct {
	Tables     int     `json:"tables"`
	Games      int     `json:"games"`
	Rounds     int     `json:"rounds"`
	Actions    int     `json:"actions"`
	Errors     int     `json:"errors"`
	Throttled  int64   `json:"throttled"`
	ActP50ms   float64 `json:"act_p50_ms"`
	ActP99ms   float64 `json:"act_p99_ms"`
	EventP99ms float64 `json:"event_p99_ms"`
	// With --for: the games cut at the end of the time (not errors).
	Cut int `json:"cut,omitempty"`
	// With --metrics-addr: the server's CPU time over the run divided by
	// the accepted actions, and its resident memory at the end.
	ServerCPUusPerAction float64 `json:"server_cpu_us_per_action,omitempty"`
	ServerRSSMiB         float64 `json:"server_rss_mib,omitempty"`
	// With --warmup, once the run outlasted it: the latencies of what
	// ended after it.
	SteadyActP50ms   float64 `json:"steady_act_p50_ms,omitempty"`
	SteadyActP99ms   float64 `json:"steady_act_p99_ms,omitempty"`
	SteadyEventP99ms float64 `json:"steady_event_p99_ms,omitempty"`
}

const botsUsage = `usage: tablectl bots --addr HOST:PORT --tables N --games M [flags]

Plays N tables at once, each with four bot clients of its own (one gRPC
connection per client), each table M whole games one after another. Progress
goes to stderr; the last line of stdout is the summary:

  {"tables":N,"games":..,"rounds":..,"actions":..,"errors":..,"throttled":..,"act_p50_ms":..,"act_p99_ms":..,"event_p99_ms":..}

(and cut, server_cpu_us_per_action, server_rss_mib and the steady_ latencies
where they apply).

games counts the games that ended for all four clients; actions the accepted
Act calls; errors every failed RPC (a refused or retried Act, a dropped or
refused stream, a failed create or join) and every inconsistency a client
saw (a sequence number repeated, going back or skipped;
an event that does not fit the seat's view). act latency is the round trip
of an Act call; event latency is from the server's timestamp of an event to
its receipt, for events logged while the stream was open (not those caught
up after a connect) - meaningful when client and server share a clock. The
exit status is 1 if errors > 0 or a game did not end.

To behave like people: --think 1s..4s waits a random delay (from --seed)
before every decision; --conns N makes all the seats share N connections,
as a gateway multiplexes them (raise the server's --max-conn-streams and
--conn-rate to match); --mux carries each connection's seats, follows and
actions, on one TableService.Multiplex stream, a table's four seats on the
same connection (without --conns, one connection a table); --ramp 500/s starts that many tables a second;
--for 10m plays new games until the time is up and then stops, the games
in progress counted as cut (not errors). --metrics-addr HOST:PORT (the
server's --metrics) adds server_cpu_us_per_action (its CPU time over the
run per accepted action) and server_rss_mib (its RSS at the end).
--warmup 30s adds steady_act_p50_ms, steady_act_p99_ms and
steady_event_p99_ms: the same latencies, of the actions and events that
ended after the run's first 30 s, while a ramp's tables start (the run's
own latencies keep everything).

throttled counts the calls a rate limit of the server refused and that
were sent again, unchanged, after the delay the server gave: not errors.
A fast bot acts far more often than a person, so against a server with
its default limits the games take longer (and act latency includes those
waits); raise them (--seat-rate, --conn-rate) to measure the server.

Flags:
`

func parseBots(args []string, stderr io.Writer) (botsOptions, error) {
	o := botsOptions{}
	fs := newFlags("bots", botsUsage, stderr)
	addrFlag(fs, &o.addr)
	fs.IntVar(&o.tables, "tables", 1, "tables played at once")
	fs.IntVar(&o.games, "games", 1, "games each table plays, one after another")
	fs.StringVar(&o.kind, "bot", "efficient", "the bots: efficient or random")
	fs.StringVar(&o.rules, "rules", "hanchan", "hanchan (east-south), tonpuu (east only), sichuan (bloody battle, 8 hands), mcr (Chinese Official, with the MCR bot) or classical (four wind rounds)")
	fs.IntVar(&o.hands, "hands", 16, "mcr: hands in a game, 1 to 16")
	fs.DurationVar(&o.turn, "turn-time", 10*time.Second, "turn timer of the tables")
	fs.DurationVar(&o.claim, "claim-time", 5*time.Second, "claim window timer of the tables")
	fs.DurationVar(&o.pause, "round-pause", 10*time.Millisecond, "pause between rounds (at least 1ns; zero would take the server's default)")
	fs.StringVar(&o.seed, "seed", "", "make the tables and random bots reproducible from this `string` (default: random)")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long (with --for: default --for plus 5m)")
	fs.DurationVar(&o.every, "progress", 2*time.Second, "interval of the progress lines")
	fs.DurationVar(&o.dwell, "claim-dwell", 0, "least pause after every discard (0: none, as bots need no protection; negative: the server's default)")
	fs.Var(&o.think, "think", "a random delay before every decision, drawn from `MIN..MAX` (e.g. 1s..4s), as a person thinks")
	fs.IntVar(&o.conns, "conns", 0, "client connections all the seats share, as a gateway multiplexes them (0: one per seat; with --mux one per table)")
	fs.BoolVar(&o.mux, "mux", false, "carry the seats of each connection on one Multiplex stream, a table's four seats on the same connection, as a gateway places them")
	ramp := fs.String("ramp", "0", "new tables a `second` (e.g. 500/s; 0: all at once)")
	fs.DurationVar(&o.duration, "for", 0, "duration mode: tables start new games until this is up, then stop (0: --games each)")
	fs.DurationVar(&o.warmup, "warmup", 0, "also report the latencies of what ended after the run's first `DURATION` (steady_ fields; 0: no such fields)")
	fs.StringVar(&o.metricsAddr, "metrics-addr", "", "the server's metrics `HOST:PORT`: report its CPU per action and RSS")
	fs.IntVar(&o.gogc, "gogc", loadGOGC, "the load generator's own GOGC during the run (0: as the environment says; the default unless GOGC is set)")
	fs.IntVar(&o.procs, "procs", 0, "cores the load generator's own goroutines run on at once (GOMAXPROCS; 0: Go's default, every core)")
	fs.StringVar(&o.cpuProfile, "cpuprofile", "", "write the load generator's own CPU profile to `FILE` (pprof)")
	fs.StringVar(&o.memProfile, "memprofile", "", "write the load generator's own heap profile to `FILE` at the end (pprof)")
	if err := fs.Parse(args); err != nil {
		return o, errUsage
	}
	timeoutSet := false
	gogcSet := false
	fs.Visit(func(f *flag.Flag) {
		timeoutSet = timeoutSet || f.Name == "timeout"
		gogcSet = gogcSet || f.Name == "gogc"
	})
	if !gogcSet && os.Getenv("GOGC") != "" {
		o.gogc = 0 // the environment's choice stands
	}
	if o.duration > 0 && !timeoutSet {
		// The games in play wind down after --for: the timeout, which
		// ends everything as a failure, must leave them time to.
		o.timeout = o.duration + durationGrace
	}
	var bad string
	var rerr error
	o.ramp, rerr = parseRate(*ramp)
	switch {
	case rerr != nil:
		bad = rerr.Error()
	case o.conns < 0 || o.duration < 0 || o.procs < 0 || o.gogc < 0 || o.warmup < 0:
		bad = "--conns, --for, --procs, --gogc and --warmup must not be negative"
	case o.duration > 0 && o.timeout <= o.duration:
		bad = fmt.Sprintf("--timeout %v must be longer than --for %v", o.timeout, o.duration)
	case o.think.max > 0 && (o.think.max >= o.turn || o.think.max >= o.claim):
		bad = fmt.Sprintf("--think up to %v: want less than --turn-time and --claim-time", o.think.max)
	case fs.NArg() > 0:
		bad = fmt.Sprintf("unexpected arguments %q", fs.Args())
	case o.tables < 1 || o.games < 1:
		bad = "--tables and --games must be at least 1"
	case o.kind != "efficient" && o.kind != "random":
		bad = fmt.Sprintf("--bot %q: want efficient or random", o.kind)
	case o.rules != "hanchan" && o.rules != "tonpuu" && o.rules != "sichuan" && o.rules != "mcr" && o.rules != "classical":
		bad = fmt.Sprintf("--rules %q: want hanchan, tonpuu, sichuan, mcr or classical", o.rules)
	case (o.rules == "sichuan" || o.rules == "classical") && o.kind != "efficient":
		bad = fmt.Sprintf("--rules %s plays the efficient bot only", o.rules)
	case o.hands < 1 || o.hands > 16:
		bad = "--hands must be 1 to 16"
	case o.rules == "mcr" && o.kind != "efficient":
		bad = "--rules mcr plays the MCR bot: --bot does not apply"
	case o.turn <= 0 || o.claim <= 0 || o.pause <= 0 || o.every <= 0:
		bad = "timers and --progress must be positive"
	}
	if bad != "" {
		fmt.Fprintln(stderr, "tablectl bots:", bad)
		fs.Usage()
		return o, errUsage
	}
	return o, nil
}

// durationGrace is how long past --for the default --timeout leaves the
// games cut at the end to wind down.
const durationGrace = 5 * time.Minute

func runBots(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	o, err := parseBots(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	var before serverUsage
	if o.metricsAddr != "" {
		if before, err = readServerUsage(ctx, o.metricsAddr); err != nil {
			return err
		}
	}
	if o.procs > 0 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(o.procs))
	}
	if o.gogc > 0 {
		defer debug.SetGCPercent(debug.SetGCPercent(o.gogc))
	}
	stopProfile, err := startProfiles(o)
	if err != nil {
		return err
	}
	sum, started := loadTest(ctx, o, stderr)
	if err := stopProfile(); err != nil {
		return err
	}
	if o.metricsAddr != "" {
		// Its own deadline: the summary is wanted most after a run that
		// timed out.
		rctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		after, err := readServerUsage(rctx, o.metricsAddr)
		cancel()
		if err != nil {
			return err
		}
		if sum.Actions > 0 {
			sum.ServerCPUusPerAction = math.Round((after.cpu-before.cpu)*1e7/float64(sum.Actions)) / 10
		}
		sum.ServerRSSMiB = math.Round(after.rss*10/(1<<20)) / 10
	}
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", line)
	want := o.tables * o.games
	if o.duration > 0 {
		want = started - sum.Cut
	}
	if sum.Errors > 0 || sum.Games < want {
		return fmt.Errorf("bots: %d errors, %d of %d games ended", sum.Errors, sum.Games, want)
	}
	return nil
}

// startProfiles starts the CPU profile of --cpuprofile; the returned
// function stops it and writes the heap profile of --memprofile.
func startProfiles(o botsOptions) (func() error, error) {
	var cpu *os.File
	if o.cpuProfile != "" {
		f, err := os.Create(o.cpuProfile)
		if err != nil {
			return nil, fmt.Errorf("bots: %w", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("bots: cpu profile: %w", err)
		}
		cpu = f
	}
	// In duration mode the heap profile is taken two thirds into the run,
	// every table playing, rather than after the seats have gone.
	var heapTimer *time.Timer
	heapDone := make(chan error, 1)
	if o.memProfile != "" && o.duration > 0 {
		heapTimer = time.AfterFunc(o.duration*2/3, func() { heapDone <- writeHeapProfile(o.memProfile) })
	}
	return func() error {
		if heapTimer != nil && heapTimer.Stop() {
			// Stopped before it fired (the run ended early): take it now.
			heapDone <- writeHeapProfile(o.memProfile)
		}
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				return fmt.Errorf("bots: cpu profile: %w", err)
			}
		}
		if heapTimer != nil {
			return <-heapDone
		}
		if o.memProfile == "" {
			return nil
		}
		return writeHeapProfile(o.memProfile)
	}, nil
}

// writeHeapProfile writes the heap profile (what is held, and what was
// allocated since the start) to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("bots: %w", err)
	}
	if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("bots: heap profile: %w", err)
	}
	return f.Close()
}

// ownUsage is what the load generator itself holds: its goroutines and
// the memory its runtime mapped (close to its RSS), stacks apart, so that
// a run shows the cost of a seat.
type ownUsage struct {
	goroutines    uint64
	total, stacks uint64 // bytes
}

var ownUsageSamples = []metrics.Sample{
	{Name: "/sched/goroutines:goroutines"},
	{Name: "/memory/classes/total:bytes"},
	{Name: "/memory/classes/heap/stacks:bytes"},
}

// readOwnUsage reads ownUsage from runtime/metrics (no stop of the world).
func readOwnUsage() ownUsage {
	s := slices.Clone(ownUsageSamples)
	metrics.Read(s)
	return ownUsage{goroutines: s[0].Value.Uint64(), total: s[1].Value.Uint64(), stacks: s[2].Value.Uint64()}
}

// serverUsage is what the server's metrics say of its process.
type serverUsage struct{ cpu, rss float64 } // seconds, bytes

// readServerUsage reads process_cpu_seconds_total and
// process_resident_memory_bytes from the Prometheus text at
// http://addr/metrics.
func readServerUsage(ctx context.Context, addr string) (serverUsage, error) {
	var u serverUsage
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+"/metrics", nil)
	if err != nil {
		return u, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return u, fmt.Errorf("bots: server metrics: %w", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return u, fmt.Errorf("bots: server metrics: %s, %v", resp.Status, err)
	}
	found := 0
	for line := range strings.Lines(string(body)) {
		name, val, ok := strings.Cut(strings.TrimSpace(line), " ")
		var dst *float64
		switch {
		case !ok:
			continue
		case name == "process_cpu_seconds_total":
			dst = &u.cpu
		case name == "process_resident_memory_bytes":
			dst = &u.rss
		default:
			continue
		}
		if *dst, err = strconv.ParseFloat(val, 64); err != nil {
			return u, fmt.Errorf("bots: server metrics: %s: %w", name, err)
		}
		found++
	}
	if found != 2 {
		return u, fmt.Errorf("bots: server metrics at %s: no process_cpu_seconds_total and process_resident_memory_bytes", addr)
	}
	return u, nil
}

// loadMetrics gathers what every bot measures.
type loadMetrics struct {
	mu        sync.Mutex
	log       io.Writer
	logged    int
	games     int
	rounds    int
	errors    int
	throttled int64
	cut       int
	started   int
	playing   atomic.Int64 // tables in a game now
	// What every action and every event adds: counted without the lock.
	acted    atomic.Int64 // accepted actions
	actLat   latencies
	eventLat latencies
	// think sends the actions after their think time (nil: none wait).
	think *scheduler
}

// act counts an accepted action and its round trip.
func (m *loadMetrics) act(d time.Duration) {
	m.actLat.add(d)
	m.acted.Add(1)
}

// event counts the delivery latency of a live event.
func (m *loadMetrics) event(d time.Duration) { m.eventLat.add(d) }

// maxErrorLines bounds the errors written out one by one.
const maxErrorLines = 20

func (m *loadMetrics) fail(n int, format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.errors += n
	if m.logged < maxErrorLines {
		fmt.Fprintf(m.log, "error: "+format+"\n", args...)
	} else if m.logged == maxErrorLines {
		fmt.Fprintln(m.log, "error: more errors are counted but not shown")
	}
	m.logged++
}

func (m *loadMetrics) summary(tables int) botsSummary {
	m.mu.Lock()
	defer m.mu.Unlock()
	return botsSummary{
		Tables: tables, Games: m.games, Rounds: m.rounds, Actions: int(m.acted.Load()), Errors: m.errors, Throttled: m.throttled, Cut: m.cut,
		ActP50ms: m.actLat.quantileMs(0.50), ActP99ms: m.actLat.quantileMs(0.99), EventP99ms: m.eventLat.quantileMs(0.99),
	}
}

// lockedWriter serialises the writes of the goroutines that share it.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// loadTest plays the tables and returns the summary and the number of
// games started.
func loadTest(ctx context.Context, o botsOptions, stderr io.Writer) (botsSummary, int) {
	stderr = &lockedWriter{w: stderr}
	m := &loadMetrics{log: stderr}
	if o.think.max > 0 {
		senders := newWorkers()
		defer senders.stop()
		m.think = newScheduler(senders)
		defer m.think.stop()
	}
	start := time.Now()
	games := fmt.Sprintf("%d games", o.games)
	if o.duration > 0 {
		games = "games for " + o.duration.String()
	}
	fmt.Fprintf(stderr, "bots: %d tables x %s of %s %s bots on %s\n", o.tables, games, o.rules, o.kind, o.addr)
	// run ends the games in duration mode; ctx (the timeout) stays the
	// bound of everything.
	run, stopRun := ctx, context.CancelFunc(func() {})
	if o.duration > 0 {
		run, stopRun = context.WithTimeout(ctx, o.duration)
	}
	defer stopRun()
	var pool []*client.Client
	var muxes []*client.Mux // with --mux, pool[k]'s
	for range o.conns {
		c, err := client.Dial(o.addr, client.LeanTransport()...)
		if err != nil {
			m.fail(1, "connection: %v", err)
			return m.summary(o.tables), 0
		}
		defer c.Close()
		pool = append(pool, c)
		if o.mux {
			mx := c.Mux(ctx)
			defer mx.Close()
			muxes = append(muxes, mx)
		}
	}
	done := make(chan struct{})
	var progress sync.WaitGroup
	progress.Go(func() {
		t := time.NewTicker(o.every)
		defer t.Stop()
		var actWin, eventWin latWindow
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s := m.summary(o.tables)
				of := ""
				if o.duration == 0 {
					of = fmt.Sprintf("/%d", o.tables*o.games)
				}
				u := readOwnUsage()
				fmt.Fprintf(stderr, "[%5.1fs] playing %d, games %d%s, rounds %d, actions %d, errors %d, act p50 %.2fms p99 %.2fms (last %v: %.2fms), event p99 %.2fms (last: %.2fms); load generator: %d goroutines, %.1f MiB (stacks %.1f MiB)\n",
					time.Since(start).Seconds(), m.playing.Load(), s.Games, of, s.Rounds, s.Actions, s.Errors, s.ActP50ms, s.ActP99ms,
					o.every, actWin.quantileMs(&m.actLat, 0.99), s.EventP99ms, eventWin.quantileMs(&m.eventLat, 0.99),
					u.goroutines, float64(u.total)/(1<<20), float64(u.stacks)/(1<<20))
			}
		}
	})
	var steady steadyLatencies
	if o.warmup > 0 {
		progress.Go(func() { steady.start(m, o.warmup, done) })
	}
	var wg sync.WaitGroup
	for i := range o.tables {
		if o.ramp > 0 && sleepCtx(run, time.Until(start.Add(time.Duration(float64(i)/o.ramp*float64(time.Second))))) != nil {
			break
		}
		wg.Go(func() { runTable(ctx, run, o, i, pool, muxes, m) })
	}
	wg.Wait()
	close(done)
	progress.Wait()
	for _, c := range pool {
		m.mu.Lock()
		m.throttled += c.Throttled()
		m.mu.Unlock()
	}
	s := m.summary(o.tables)
	steady.end(m, &s)
	fmt.Fprintf(stderr, "bots: done in %.1fs: %d games, %d rounds, %d actions, %d errors, %d throttled, %d cut\n", time.Since(start).Seconds(), s.Games, s.Rounds, s.Actions, s.Errors, s.Throttled, s.Cut)
	m.mu.Lock()
	defer m.mu.Unlock()
	return s, m.started
}

// steadyLatencies are the latencies of what ended after a warmup: the
// run's own quantiles hold its first seconds too, while a ramp's tables
// join and open their streams (at 10,000 tables, the intervals then had
// act p99s ten times those of the minute after; docs/performance.md).
type steadyLatencies struct {
	act, event latWindow
	on         bool // the run outlasted the warmup
}

// start waits out the warmup, unless the run is done first, and marks
// where the steady latencies begin.
func (st *steadyLatencies) start(m *loadMetrics, warmup time.Duration, done <-chan struct{}) {
	t := time.NewTimer(warmup)
	defer t.Stop()
	select {
	case <-t.C:
		st.act.take(&m.actLat)
		st.event.take(&m.eventLat)
		st.on = true
	case <-done:
	}
}

// end puts the steady latencies into the summary; start must have
// returned.
func (st *steadyLatencies) end(m *loadMetrics, s *botsSummary) {
	if !st.on {
		return
	}
	act := st.act.take(&m.actLat)
	s.SteadyActP50ms, s.SteadyActP99ms = act.quantileMs(0.50), act.quantileMs(0.99)
	s.SteadyEventP99ms = st.event.take(&m.eventLat).quantileMs(0.99)
}

// sleepCtx waits d, or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// runTable plays table slot i's games one after another, with four
// clients: connections of their own, or shared ones from pool. With --mux
// the four are one connection, the table's own or pool's (i mod its
// size), and the seats' sessions share its Multiplex stream (muxes, or
// the table's own). run ends the games in duration mode, ctx is the bound
// of the whole test.
func runTable(ctx, run context.Context, o botsOptions, i int, pool []*client.Client, muxes []*client.Mux, m *loadMetrics) {
	var clients [table.NumSeats]*client.Client
	var own []*client.Client // dialled here, and counted here
	var opts client.Options
	for s := range clients {
		switch {
		case o.mux && len(pool) > 0:
			clients[s], opts.Mux = pool[i%len(pool)], muxes[i%len(muxes)]
			continue
		case len(pool) > 0:
			clients[s] = pool[(i*table.NumSeats+s)%len(pool)]
			continue
		case o.mux && s > 0:
			clients[s] = clients[0]
			continue
		}
		c, err := client.Dial(o.addr, client.LeanTransport()...)
		if err != nil {
			m.fail(o.games, "table %d: %v", i, err)
			return
		}
		defer c.Close()
		clients[s] = c
		own = append(own, c)
		if o.mux {
			opts.Mux = c.Mux(ctx)
			defer opts.Mux.Close()
		}
	}
	defer func() {
		var n int64 // the pool's calls are counted by loadTest, once
		for _, c := range own {
			n += c.Throttled()
		}
		m.mu.Lock()
		m.throttled += n
		m.mu.Unlock()
	}()
	play := playerOf(o.rules)
	for g := 0; o.duration > 0 || g < o.games; g++ {
		// The time is up by the clock even before run's timer fires; a
		// game started then would fail at once and count as cut.
		if end, ok := run.Deadline(); o.duration > 0 && (run.Err() != nil || ok && !time.Now().Before(end)) {
			return
		}
		if ctx.Err() != nil {
			m.fail(1, "table %d game %d: %v", i, g, ctx.Err())
			continue
		}
		m.mu.Lock()
		m.started++
		m.mu.Unlock()
		m.playing.Add(1)
		play(ctx, run, o, i, g, &clients, opts, m)
		m.playing.Add(-1)
	}
}

// derive is a value reproducible from --seed (or random without one) for
// one purpose of one table's game.
func derive(o botsOptions, what string, i, g int) [32]byte {
	if o.seed == "" {
		var b [32]byte
		crand.Read(b[:]) // never fails
		return b
	}
	return sha256.Sum256(fmt.Appendf(nil, "tablectl bots\x00%s\x00%s\x00%d\x00%d", o.seed, what, i, g))
}

func (o botsOptions) settings(i, g int) *pb.TableSettings {
	set := &pb.TableSettings{
		Rules:      rulePreset(o.rules),
		TurnTime:   durationpb.New(o.turn),
		ClaimTime:  durationpb.New(o.claim),
		RoundPause: durationpb.New(o.pause),
	}
	if o.dwell >= 0 {
		set.ClaimDwell = durationpb.New(o.dwell)
	}
	if o.rules == "classical" {
		c := classicalSettings()
		set.RuleSet, set.Rules, set.Options = c.RuleSet, pb.RulePreset_RULE_PRESET_UNSPECIFIED, c.Options
	}
	if o.rules == "mcr" {
		set.RuleSet, set.Rules, set.Options = pb.RuleSet_RULE_SET_MCR, pb.RulePreset_RULE_PRESET_MCR, mcrSettings(o.hands).Options
	}
	if o.rules == "sichuan" {
		set.RuleSet, set.Rules, set.Options = pb.RuleSet_RULE_SET_SICHUAN, pb.RulePreset_RULE_PRESET_UNSPECIFIED, sichuanOptions()
	}
	if o.seed != "" {
		s := derive(o, "table", i, g)
		set.Seed = s[:]
	}
	return set
}

func (o botsOptions) newBot(i, g, seat int) bot.Bot {
	if o.kind == "random" {
		s := derive(o, fmt.Sprintf("bot %d", seat), i, g)
		return bot.NewRandom(binary.LittleEndian.Uint64(s[:]))
	}
	return bot.Efficient{}
}

// riichiBots plays riichi games (hanchan, tonpuu) with --bot.
var riichiBots = botRules[table.Action, table.View, table.Body, *client.Tracker]{
	follow: func(c *client.Client, _ *pb.Table, st client.Seat, opts client.Options) (*client.Session, error) {
		return c.Follow(st, opts), nil
	},
	newBot: func(o botsOptions, i, g, s int) decider[table.Action, table.View] { return o.newBot(i, g, s) },
	tally: func(r *seatResult, b table.Body) {
		switch e := b.(type) {
		case table.RoundEnded:
			r.rounds++
		case table.GameEnded:
			r.final = e.Scores
		}
	},
	rounds: "rounds", scores: "scores",
}
