package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/classical"
	"github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// runBotsOn runs `tablectl bots` and returns its summary (the last line of
// stdout, decoded strictly), its error and stderr.
func runBotsOn(t *testing.T, args ...string) (botsSummary, string, error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(append([]string{"bots"}, args...), strings.NewReader(""), &out, &errOut)
	lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	var sum botsSummary
	dec := json.NewDecoder(strings.NewReader(last))
	dec.DisallowUnknownFields()
	if derr := dec.Decode(&sum); derr != nil {
		t.Fatalf("last line %q is not the summary: %v (stderr %s)", last, derr, errOut.String())
	}
	return sum, errOut.String(), err
}

// TestBotsPlaysTables plays three tables of two games each over gRPC: every
// game ends and nothing goes wrong.
func TestBotsPlaysTables(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	for _, kind := range []string{"efficient", "random"} {
		sum, stderr, err := runBotsOn(t, "--addr", addr, "--tables", "3", "--games", "2", "--rules", "tonpuu", "--bot", kind, "--seed", "test", "--progress", "100ms")
		if err != nil {
			t.Fatalf("%s: bots: %v\n%s", kind, err, stderr)
		}
		if sum.Tables != 3 || sum.Games != 6 || sum.Errors != 0 || sum.Rounds < 6 || sum.Actions < 100 {
			t.Errorf("%s: summary %+v: want 3 tables, 6 games, no error, rounds and actions", kind, sum)
		}
		if sum.ActP50ms <= 0 || sum.ActP99ms < sum.ActP50ms || sum.EventP99ms <= 0 {
			t.Errorf("%s: latencies %+v: want positive, p99 >= p50", kind, sum)
		}
		if !strings.Contains(stderr, "game 2/2 ended") {
			t.Errorf("%s: no progress on stderr:\n%s", kind, stderr)
		}
	}
}

// TestBotsSeedReproduces plays the same seeded table twice: the same
// rounds and actions.
func TestBotsSeedReproduces(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	var sums [2]botsSummary
	for i := range sums {
		var err error
		var stderr string
		if sums[i], stderr, err = runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "same"); err != nil {
			t.Fatalf("bots: %v\n%s", err, stderr)
		}
	}
	if sums[0].Rounds != sums[1].Rounds || sums[0].Actions != sums[1].Actions {
		t.Fatalf("same seed, different games: %+v and %+v", sums[0], sums[1])
	}
}

// TestBotsFails exits non-zero when games do not end: no server.
func TestBotsFails(t *testing.T) {
	sum, _, err := runBotsOn(t, "--addr", "127.0.0.1:1", "--tables", "2", "--timeout", "2s")
	if err == nil || sum.Errors == 0 || sum.Games != 0 {
		t.Fatalf("bots without a server = %+v, %v; want errors and an error exit", sum, err)
	}
}

func TestBotsUsage(t *testing.T) {
	for _, args := range [][]string{{"--tables", "0"}, {"--bot", "smart"}, {"--rules", "chinese"}, {"extra"}, {"--round-pause", "0s"}} {
		var out, errOut bytes.Buffer
		if err := run(append([]string{"bots"}, args...), nil, &out, &errOut); !errors.Is(err, errUsage) {
			t.Errorf("bots %v = %v, want a usage error", args, err)
		}
	}
}

// TestBotsSendEntropy: every bot client sends entropy of its own when it
// joins (reproducible from --seed), and the game's record carries it, so
// the walls the record verifies against are mixed with it.
func TestBotsSendEntropy(t *testing.T) {
	srv := servertest.Start(t, servertest.Riichi())
	if _, stderr, err := runBotsOn(t, "--addr", srv.Addr, "--rules", "tonpuu", "--seed", "e"); err != nil {
		t.Fatalf("bots: %v\n%s", err, stderr)
	}
	lr, err := pb.NewTableServiceClient(srv.Dial()).ListTables(context.Background(), &pb.ListTablesRequest{})
	if err != nil || len(lr.GetTables()) != 1 {
		t.Fatalf("ListTables = %v, %v; want the one table", lr, err)
	}
	id := lr.GetTables()[0].GetTableId()
	var out, errOut bytes.Buffer
	if err := run([]string{"export", "--table", id, "--addr", srv.Addr}, nil, &out, &errOut); err != nil {
		t.Fatalf("export: %v (%s)", err, errOut.String())
	}
	var g record.Game
	if err := json.Unmarshal(out.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	for s := range 4 {
		want := derive(botsOptions{seed: "e"}, fmt.Sprint("entropy ", s), 0, 0)
		if len(g.Entropy) != 4 || g.Entropy[s] != hex.EncodeToString(want[:]) {
			t.Fatalf("record's entropy %q, want seat %d's %x", g.Entropy, s, want)
		}
	}
	var vout bytes.Buffer
	if err := run([]string{"verify"}, bytes.NewReader(out.Bytes()), &vout, &errOut); err != nil {
		t.Fatalf("verify: %v: %s", err, vout.String())
	}
}

// TestBotsWithDefaultLimits plays against a server with the authority's
// default rate limits (10 actions a second per seat, 50 calls a second per
// connection): the bots wait the delays the server gives, so no call
// fails, and the throttled calls are counted apart.
func TestBotsWithDefaultLimits(t *testing.T) {
	cfg := servertest.Riichi()
	cfg.SeatRate = host.Rate{PerSecond: 10, Burst: 20}
	cfg.ConnRate = host.Rate{PerSecond: 50, Burst: 100}
	addr := servertest.Start(t, cfg).Addr
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "limits", "--progress", "1s")
	if err != nil {
		t.Fatalf("bots: %v\n%s", err, stderr)
	}
	if sum.Games != 1 || sum.Errors != 0 || sum.Throttled == 0 {
		t.Fatalf("summary %+v: want the game, no error and throttled calls\n%s", sum, stderr)
	}
}

// TestBotsThink: every decision waits a delay drawn from --think, so a
// game takes at least its actions' thinking (up to four seats think at
// once, on claims), and act latency leaves the thinking out.
func TestBotsThink(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	start := time.Now()
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "think", "--think", "4ms..6ms")
	elapsed := time.Since(start)
	if err != nil || sum.Games != 1 || sum.Errors != 0 {
		t.Fatalf("bots --think = %+v, %v\n%s", sum, err, stderr)
	}
	if least := time.Duration(sum.Actions) * 4 * time.Millisecond / 4; elapsed < least {
		t.Errorf("%d actions in %v: want at least %v of thinking", sum.Actions, elapsed, least)
	}
}

// TestBotsThinkEveryRuleSet: --think, and --for's cut, apply to every
// rule set's bots, which share riichi's seat loop: the games end with no
// error and take at least their actions' thinking; a game still playing
// when --for is up is cut, which is no error.
func TestBotsThinkEveryRuleSet(t *testing.T) {
	srv := servertest.Start(t, server.Config{RuleSets: []ruleset.RuleSet{
		riichi.New(riichi.Standard()), sichuan.New(sichuan.Standard()), mcr.New(mcr.Config{}), classical.New(classical.Standard()),
	}})
	for _, rules := range [][]string{{"--rules", "sichuan"}, {"--rules", "mcr", "--hands", "1"}, {"--rules", "classical"}} {
		t.Run(rules[1], func(t *testing.T) {
			start := time.Now()
			sum, stderr, err := runBotsOn(t, append([]string{"--addr", srv.Addr, "--seed", "think", "--think", "1ms..2ms"}, rules...)...)
			elapsed := time.Since(start)
			if err != nil || sum.Games != 1 || sum.Errors != 0 || sum.Rounds < 1 {
				t.Fatalf("bots %v --think = %+v, %v\n%s", rules, sum, err, stderr)
			}
			if least := time.Duration(sum.Actions) * time.Millisecond / 4; elapsed < least {
				t.Errorf("%d actions in %v: want at least %v of thinking", sum.Actions, elapsed, least)
			}
			sum, stderr, err = runBotsOn(t, append([]string{"--addr", srv.Addr, "--seed", "for", "--think", "20ms..50ms", "--for", "1s"}, rules...)...)
			if err != nil || sum.Errors != 0 || sum.Cut != 1 || sum.Games != 0 || sum.Actions == 0 {
				t.Fatalf("bots %v --for 1s = %+v, %v: want the game cut, actions, no error\n%s", rules, sum, err, stderr)
			}
		})
	}
}

// TestBotsConns: with --conns 1 every seat shares one connection. Three
// tables (12 streams) fit the server's 16 streams per connection; five
// (20) do not, which proves the sharing.
func TestBotsConns(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "conns", "--tables", "3", "--conns", "1")
	if err != nil || sum.Games != 3 || sum.Errors != 0 {
		t.Fatalf("bots --tables 3 --conns 1 = %+v, %v\n%s", sum, err, stderr)
	}
	sum, _, err = runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "conns", "--tables", "5", "--conns", "1", "--timeout", "3s")
	if err == nil || sum.Errors == 0 {
		t.Fatalf("bots --tables 5 --conns 1 = %+v, %v; want the streams past 16 on the one connection refused", sum, err)
	}
}

// countingServer serves srv's tables again on a listener of its own,
// counting the calls by method.
func countingServer(t *testing.T, srv *servertest.Server) (string, func(method string) int) {
	t.Helper()
	var mu sync.Mutex
	n := map[string]int{}
	count := func(method string) {
		mu.Lock()
		n[method]++
		mu.Unlock()
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(append(srv.Options(),
		grpc.ChainUnaryInterceptor(func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			count(info.FullMethod)
			return h(ctx, req)
		}),
		grpc.ChainStreamInterceptor(func(s any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
			count(info.FullMethod)
			return h(s, ss)
		}))...)
	srv.Register(g)
	go g.Serve(srv.Listener(lis))
	t.Cleanup(g.Stop)
	return lis.Addr().String(), func(method string) int {
		mu.Lock()
		defer mu.Unlock()
		return n[method]
	}
}

// TestBotsMux: with --mux a table's four seats share one connection and
// one Multiplex stream, which carries every follow and action (no
// StreamEvents stream, no Act call): the games of every rule set end with
// no error. With --conns, the tables share the connections' streams.
func TestBotsMux(t *testing.T) {
	addr, calls := countingServer(t, servertest.Start(t, servertest.Standard()))
	const (
		multiplex = "/mahjong.authority.v1.TableService/Multiplex"
		stream    = "/mahjong.authority.v1.TableService/StreamEvents"
		act       = "/mahjong.authority.v1.TableService/Act"
	)
	for _, tc := range []struct {
		args    []string
		games   int
		streams int // Multiplex streams opened
	}{
		{args: []string{"--rules", "tonpuu", "--tables", "3", "--games", "2"}, games: 6, streams: 3},
		{args: []string{"--rules", "tonpuu", "--tables", "3", "--conns", "2", "--think", "1ms..3ms"}, games: 3, streams: 2},
		{args: []string{"--tables", "2", "--for", "2s", "--think", "20ms..50ms", "--conns", "1"}, streams: 1},
		{args: []string{"--rules", "sichuan", "--tables", "2"}, games: 2, streams: 2},
		{args: []string{"--rules", "mcr", "--hands", "2", "--tables", "1"}, games: 1, streams: 1},
	} {
		before := calls(multiplex)
		sum, stderr, err := runBotsOn(t, append([]string{"--addr", addr, "--mux", "--seed", "mux", "--progress", "500ms"}, tc.args...)...)
		if err != nil || sum.Errors != 0 || sum.Games != tc.games || sum.Actions == 0 {
			t.Fatalf("bots --mux %v = %+v, %v: want %d games, actions, no error\n%s", tc.args, sum, err, tc.games, stderr)
		}
		if got := calls(multiplex) - before; got != tc.streams {
			t.Errorf("bots --mux %v opened %d Multiplex streams, want %d", tc.args, got, tc.streams)
		}
	}
	if n, m := calls(stream), calls(act); n != 0 || m != 0 {
		t.Errorf("bots --mux made %d StreamEvents and %d Act calls, want none", n, m)
	}
}

// TestBotsRamp starts --ramp tables a second: the fifth table starts
// 4/ramp after the first, so the run takes at least that.
func TestBotsRamp(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	start := time.Now()
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "ramp", "--tables", "5", "--ramp", "10/s")
	if elapsed := time.Since(start); elapsed < 400*time.Millisecond {
		t.Errorf("5 tables at 10/s in %v: want at least 400ms", elapsed)
	}
	if err != nil || sum.Games != 5 || sum.Errors != 0 {
		t.Fatalf("bots --ramp = %+v, %v\n%s", sum, err, stderr)
	}
}

// TestBotsFor plays for a fixed time: human-paced hanchan games cannot
// end in it, so they are cut at the end, which is no error; a fast run
// ends games and starts new ones until the time is up.
func TestBotsFor(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	start := time.Now()
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--seed", "for", "--tables", "2", "--think", "20ms..50ms", "--for", "3s", "--progress", "300ms", "--warmup", "1s")
	if elapsed := time.Since(start); elapsed < 3*time.Second || elapsed > 20*time.Second {
		t.Errorf("--for 3s took %v", elapsed)
	}
	if err != nil || sum.Errors != 0 || sum.Cut != 2 || sum.Games != 0 || sum.Actions == 0 {
		t.Fatalf("bots --for 3s = %+v, %v: want 2 games cut, actions, no error\n%s", sum, err, stderr)
	}
	if sum.SteadyActP50ms <= 0 || sum.SteadyActP99ms < sum.SteadyActP50ms || sum.SteadyEventP99ms <= 0 {
		t.Errorf("--warmup 1s of 3s: steady latencies %+v, want them all", sum)
	}
	if !strings.Contains(stderr, "playing 2,") {
		t.Errorf("no progress line with the tables playing:\n%s", stderr)
	}
	// A game ended and the table started the next (cut at the end).
	sum, stderr, err = runBotsOn(t, "--addr", addr, "--seed", "for", "--rules", "tonpuu", "--for", "10s")
	if err != nil || sum.Errors != 0 || sum.Games < 1 || sum.Cut != 1 {
		t.Fatalf("bots --for 10s, efficient = %+v, %v: want games ended and the last one cut\n%s", sum, err, stderr)
	}
	t.Logf("--for 10s: %+v", sum)
}

// TestBotsForTimeout: in duration mode the default timeout outlasts
// --for, so that the games cut at the end wind down without errors (a
// 30-minute run once timed out with its --for and counted every game in
// play as failed); a timeout no longer than --for is refused.
func TestBotsForTimeout(t *testing.T) {
	var errOut bytes.Buffer
	for _, c := range []struct {
		args []string
		want time.Duration
	}{
		{[]string{"--for", "30m"}, 30*time.Minute + durationGrace},
		{[]string{"--for", "30m", "--timeout", "31m"}, 31 * time.Minute},
		{nil, 30 * time.Minute},
	} {
		o, err := parseBots(c.args, &errOut)
		if err != nil || o.timeout != c.want {
			t.Errorf("bots %v: timeout %v, %v; want %v", c.args, o.timeout, err, c.want)
		}
	}
	for _, args := range [][]string{{"--for", "10s", "--timeout", "10s"}, {"--for", "10m", "--timeout", "5m"}} {
		if _, err := parseBots(args, &errOut); !errors.Is(err, errUsage) {
			t.Errorf("bots %v = %v, want a usage error", args, err)
		}
	}
}

// TestBotsServerUsage reads the server's CPU and RSS from its metrics
// before and after the run: CPU per accepted action and the RSS at the
// end.
func TestBotsServerUsage(t *testing.T) {
	addr := servertest.Start(t, servertest.Riichi()).Addr
	var calls atomic.Int32
	metrics := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/metrics" {
			http.NotFound(w, r)
			return
		}
		cpu := 2.0
		if calls.Add(1) > 1 {
			cpu = 3.0
		}
		fmt.Fprintf(w, "# TYPE process_cpu_seconds_total counter\nprocess_cpu_seconds_total %g\nprocess_resident_memory_bytes 5.24288e+07\n", cpu)
	}))
	defer metrics.Close()
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--rules", "tonpuu", "--seed", "usage", "--metrics-addr", strings.TrimPrefix(metrics.URL, "http://"))
	if err != nil || sum.Actions == 0 {
		t.Fatalf("bots = %+v, %v\n%s", sum, err, stderr)
	}
	want := math.Round(1e7/float64(sum.Actions)) / 10
	if sum.ServerCPUusPerAction != want || sum.ServerRSSMiB != 50 {
		t.Fatalf("server usage %v us/action, %v MiB; want %v (1s over %d actions), 50", sum.ServerCPUusPerAction, sum.ServerRSSMiB, want, sum.Actions)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"bots", "--addr", addr, "--rules", "tonpuu", "--metrics-addr", strings.TrimPrefix(metrics.URL, "http://") + "/nothing"}, nil, &out, &errOut); err == nil {
		t.Fatal("bots with a --metrics-addr that serves no metrics: no error")
	}
}

func TestBotsUsageLoad(t *testing.T) {
	for _, args := range [][]string{{"--think", "4s..1s"}, {"--think", "x"}, {"--think", "6s"}, {"--ramp", "fast"}, {"--ramp", "-1/s"}, {"--conns", "-1"}, {"--for", "-1s"}, {"--gogc", "-1"}} {
		var out, errOut bytes.Buffer
		if err := run(append([]string{"bots"}, args...), nil, &out, &errOut); !errors.Is(err, errUsage) {
			t.Errorf("bots %v = %v, want a usage error", args, err)
		}
	}
	var r thinkRange
	if err := r.Set("1s..4s"); err != nil || r.min != time.Second || r.max != 4*time.Second || r.String() != "1s..4s" {
		t.Errorf("thinkRange 1s..4s = %v, %v", r, err)
	}
}

// TestThinkDraw: think delays stay in their range, cover it, and repeat
// with the same seed.
func TestThinkDraw(t *testing.T) {
	r := thinkRange{min: time.Second, max: 4 * time.Second}
	a, b := rand.New(rand.NewPCG(1, 2)), rand.New(rand.NewPCG(1, 2))
	var lo, hi time.Duration = r.max, r.min
	for range 1000 {
		d := r.draw(a)
		if d != r.draw(b) {
			t.Fatal("the same seed drew different delays")
		}
		if d < r.min || d > r.max {
			t.Fatalf("draw %v outside %v", d, &r)
		}
		lo, hi = min(lo, d), max(hi, d)
	}
	if lo > 1100*time.Millisecond || hi < 3900*time.Millisecond {
		t.Errorf("1000 draws span %v..%v: want most of %v", lo, hi, &r)
	}
	if d := (thinkRange{min: time.Second, max: time.Second}).draw(a); d != time.Second {
		t.Errorf("a fixed think time drew %v", d)
	}
}

// TestBotsGOGC: the load generator collects at loadGOGC unless --gogc or
// the GOGC variable says otherwise, --gogc winning over the variable.
func TestBotsGOGC(t *testing.T) {
	for _, tc := range []struct {
		env  string
		args []string
		want int
	}{
		{"", nil, loadGOGC},
		{"", []string{"--gogc", "150"}, 150},
		{"", []string{"--gogc", "0"}, 0},
		{"300", nil, 0},
		{"300", []string{"--gogc", "150"}, 150},
	} {
		t.Setenv("GOGC", tc.env)
		o, err := parseBots(tc.args, io.Discard)
		if err != nil || o.gogc != tc.want {
			t.Errorf("GOGC=%q bots %v: gogc %d, %v; want %d", tc.env, tc.args, o.gogc, err, tc.want)
		}
	}
}
