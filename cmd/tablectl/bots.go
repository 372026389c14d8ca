package main

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"slices"
	"sync"
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
	rules         string // hanchan, tonpuu or sichuan
	turn, claim   time.Duration
	pause         time.Duration
	seed          string
	timeout       time.Duration
	every         time.Duration
	dwell         time.Duration
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
}

const botsUsage = `usage: tablectl bots --addr HOST:PORT --tables N --games M [flags]

Plays N tables at once, each with four bot clients of its own (one gRPC
connection per client), each table M whole games one after another. Progress
goes to stderr; the last line of stdout is the summary:

  {"tables":N,"games":..,"rounds":..,"actions":..,"errors":..,"throttled":..,"act_p50_ms":..,"act_p99_ms":..,"event_p99_ms":..}

games counts the games that ended for all four clients; actions the accepted
Act calls; errors every failed RPC (a refused or retried Act, a dropped or
refused stream, a failed create or join) and every inconsistency a client
saw (a sequence number repeated, going back or skipped;
an event that does not fit the seat's view). act latency is the round trip
of an Act call; event latency is from the server's timestamp of an event to
its receipt, for events logged while the stream was open (not those caught
up after a connect) - meaningful when client and server share a clock. The
exit status is 1 if errors > 0 or a game did not end.

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
	fs.StringVar(&o.rules, "rules", "hanchan", "hanchan (east-south), tonpuu (east only) or sichuan (bloody battle, 8 hands)")
	fs.DurationVar(&o.turn, "turn-time", 10*time.Second, "turn timer of the tables")
	fs.DurationVar(&o.claim, "claim-time", 5*time.Second, "claim window timer of the tables")
	fs.DurationVar(&o.pause, "round-pause", 10*time.Millisecond, "pause between rounds (at least 1ns; zero would take the server's default)")
	fs.StringVar(&o.seed, "seed", "", "make the tables and random bots reproducible from this `string` (default: random)")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long")
	fs.DurationVar(&o.every, "progress", 2*time.Second, "interval of the progress lines")
	fs.DurationVar(&o.dwell, "claim-dwell", 0, "least pause after every discard (0: none, as bots need no protection)")
	if err := fs.Parse(args); err != nil {
		return o, errUsage
	}
	var bad string
	switch {
	case fs.NArg() > 0:
		bad = fmt.Sprintf("unexpected arguments %q", fs.Args())
	case o.tables < 1 || o.games < 1:
		bad = "--tables and --games must be at least 1"
	case o.kind != "efficient" && o.kind != "random":
		bad = fmt.Sprintf("--bot %q: want efficient or random", o.kind)
	case o.rules != "hanchan" && o.rules != "tonpuu" && o.rules != "sichuan":
		bad = fmt.Sprintf("--rules %q: want hanchan, tonpuu or sichuan", o.rules)
	case o.rules == "sichuan" && o.kind != "efficient":
		bad = "--rules sichuan plays the efficient bot only"
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

func runBots(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	o, err := parseBots(args, stderr)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	sum := loadTest(ctx, o, stderr)
	line, err := json.Marshal(sum)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s\n", line)
	if want := o.tables * o.games; sum.Errors > 0 || sum.Games < want {
		return fmt.Errorf("bots: %d errors, %d of %d games ended", sum.Errors, sum.Games, want)
	}
	return nil
}

// loadMetrics gathers what every bot measures.
type loadMetrics struct {
	mu        sync.Mutex
	log       io.Writer
	logged    int
	games     int
	rounds    int
	actions   int
	errors    int
	throttled int64
	actLat    []time.Duration
	eventLat  []time.Duration
}

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
		Tables: tables, Games: m.games, Rounds: m.rounds, Actions: m.actions, Errors: m.errors, Throttled: m.throttled,
		ActP50ms: quantileMs(m.actLat, 0.50), ActP99ms: quantileMs(m.actLat, 0.99), EventP99ms: quantileMs(m.eventLat, 0.99),
	}
}

// quantileMs is the q-quantile of ds in milliseconds, to the microsecond
// (nearest rank); 0 for none.
func quantileMs(ds []time.Duration, q float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	i = max(0, min(i, len(s)-1))
	return math.Round(float64(s[i])/float64(time.Microsecond)) / 1000
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

// loadTest plays the tables and returns the summary.
func loadTest(ctx context.Context, o botsOptions, stderr io.Writer) botsSummary {
	stderr = &lockedWriter{w: stderr}
	m := &loadMetrics{log: stderr}
	start := time.Now()
	fmt.Fprintf(stderr, "bots: %d tables x %d games of %s %s bots on %s\n", o.tables, o.games, o.rules, o.kind, o.addr)
	done := make(chan struct{})
	var progress sync.WaitGroup
	progress.Go(func() {
		t := time.NewTicker(o.every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				s := m.summary(o.tables)
				fmt.Fprintf(stderr, "[%5.1fs] games %d/%d, rounds %d, actions %d, errors %d, act p50 %.2fms p99 %.2fms\n",
					time.Since(start).Seconds(), s.Games, o.tables*o.games, s.Rounds, s.Actions, s.Errors, s.ActP50ms, s.ActP99ms)
			}
		}
	})
	var wg sync.WaitGroup
	for i := range o.tables {
		wg.Go(func() { runTable(ctx, o, i, m) })
	}
	wg.Wait()
	close(done)
	progress.Wait()
	s := m.summary(o.tables)
	fmt.Fprintf(stderr, "bots: done in %.1fs: %d games, %d rounds, %d actions, %d errors, %d throttled\n", time.Since(start).Seconds(), s.Games, s.Rounds, s.Actions, s.Errors, s.Throttled)
	return s
}

// runTable plays table slot i's games one after another, with four
// clients that each keep their own connection.
func runTable(ctx context.Context, o botsOptions, i int, m *loadMetrics) {
	var clients [table.NumSeats]*client.Client
	for s := range clients {
		c, err := client.Dial(o.addr)
		if err != nil {
			m.fail(o.games, "table %d: %v", i, err)
			return
		}
		defer c.Close()
		clients[s] = c
	}
	defer func() {
		var n int64
		for _, c := range clients {
			n += c.Throttled()
		}
		m.mu.Lock()
		m.throttled += n
		m.mu.Unlock()
	}()
	for g := range o.games {
		if ctx.Err() != nil {
			m.fail(1, "table %d game %d: %v", i, g, ctx.Err())
			continue
		}
		if o.rules == "sichuan" {
			playSichuanGame(ctx, o, i, g, &clients, m)
			continue
		}
		playGame(ctx, o, i, g, &clients, m)
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
		ClaimDwell: durationpb.New(o.dwell),
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

// playGame plays one game of table slot i: a new table, four joins (the
// fourth starts it), four bots following their seats to the end.
func playGame(ctx context.Context, o botsOptions, i, g int, clients *[table.NumSeats]*client.Client, m *loadMetrics) {
	start := time.Now()
	tb, _, err := clients[0].CreateTable(ctx, o.settings(i, g))
	if err != nil {
		m.fail(1, "table %d game %d: %v", i, g, err)
		return
	}
	id := tb.GetTableId()
	var seats [table.NumSeats]client.Seat
	for s, c := range clients {
		entropy := derive(o, fmt.Sprint("entropy ", s), i, g)
		if seats[s], err = c.JoinTable(ctx, id, fmt.Sprintf("bot-%d-%d", i, s), entropy[:]); err != nil {
			m.fail(1, "table %d game %d: %v", i, g, err)
			return
		}
	}
	var wg sync.WaitGroup
	var ended [table.NumSeats]bool
	var final [4]int
	rounds := 0
	for s, st := range seats {
		wg.Go(func() {
			r := playSeat(ctx, o, clients[st.Seat].Follow(st, client.Options{}), o.newBot(i, g, s), m, fmt.Sprintf("table %d game %d seat %d", i, g, st.Seat))
			ended[s] = r.ended
			if s == 0 {
				rounds, final = r.rounds, r.final
			}
		})
	}
	wg.Wait()
	m.mu.Lock()
	m.rounds += rounds
	if !slices.Contains(ended[:], false) {
		m.games++
		fmt.Fprintf(m.log, "table %d game %d/%d ended in %.1fs: %d rounds, scores %v\n", i, g+1, o.games, time.Since(start).Seconds(), rounds, final)
	}
	m.mu.Unlock()
	if slices.Contains(ended[:], false) {
		m.fail(1, "table %d game %d (%s) did not end for every seat", i, g, id)
	}
}

// seatResult is what one bot saw of its game.
type seatResult struct {
	ended  bool
	rounds int
	final  [4]int
}

// playSeat follows a seat to the end of its game, acting whenever the
// seat has something to do, and records latencies and errors.
func playSeat(ctx context.Context, o botsOptions, s *client.Session, b bot.Bot, m *loadMetrics, who string) seatResult {
	defer s.Close()
	var r seatResult
	defer func() {
		st := s.Stats()
		// Every stream retry is a stream RPC that failed (dropped, or
		// refused when opened), every act retry an Act that did; faults
		// are the inconsistencies.
		if n := st.StreamRetries + st.ActRetries + st.Faults; n > 0 {
			m.fail(n, "%s: %d failed streams (%d reconnections), %d act retries, %d inconsistencies", who, st.StreamRetries, st.Reconnects, st.ActRetries, st.Faults)
		}
	}()
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return r
		}
		if err != nil {
			m.fail(1, "%s: %v", who, err)
			return r
		}
		if u.Live {
			m.mu.Lock()
			m.eventLat = append(m.eventLat, u.Received.Sub(u.Event.Time))
			m.mu.Unlock()
		}
		switch e := u.Event.Body.(type) {
		case table.RoundEnded:
			r.rounds++
		case table.GameEnded:
			r.final = e.Scores
		}
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		t0 := time.Now()
		_, err = s.Act(ctx, a)
		d := time.Since(t0)
		if err != nil {
			m.fail(1, "%s: %v", who, err)
			continue
		}
		m.mu.Lock()
		m.actLat = append(m.actLat, d)
		m.actions++
		m.mu.Unlock()
	}
}
