package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/protobuf/types/known/durationpb"

	ddzpb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/bot"
	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/client"
	csc "github.com/mahjong-authority/authority/internal/client/sichuan"
	ddzbot "github.com/mahjong-authority/authority/internal/doudizhu/bot"
	ddzclient "github.com/mahjong-authority/authority/internal/doudizhu/client"
	"github.com/mahjong-authority/authority/internal/doudizhu/hosting"
	ddztable "github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/host"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// process is a running authority binary.
type process struct {
	cmd    *exec.Cmd
	stderr *strings.Builder
	mu     *sync.Mutex
	exited chan error
}

// startAuthority runs the binary and waits until it serves.
func startAuthority(t *testing.T, bin, addr string, args ...string) *process {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--listen", addr}, args...)...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, stderr: &strings.Builder{}, mu: &sync.Mutex{}, exited: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(pipe)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.stderr.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
		}
		p.exited <- cmd.Wait()
	}()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true)); err != nil {
		t.Fatalf("server did not come up: %v\n%s", err, p.log())
	}
	return p
}

func (p *process) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stderr.String()
}

// scSeatRun is seatRun for a Sichuan seat.
type scSeatRun struct {
	acked []sc.Action
	final []int
	ended bool
	stats client.Stats
	err   error
}

// sichuanHands is the length of the crash test's Sichuan matches: long
// enough that each is well past its first hand when the riichi games are.
const sichuanHands = 6

// seatRun is what one bot client did: every action the server
// acknowledged, in order, and how its stream went.
type seatRun struct {
	acked  []table.Action
	final  []int
	ended  bool
	stats  client.Stats
	err    error
	events int
}

// TestCrashRecovery is the crash test: the real binary with a data
// directory, several tables of four bot clients each over gRPC, kill -9 in
// the middle of their rounds (and Dou Dizhu tables of three bot clients
// in the middle of their matches), a restart on the same data, and the clients
// reconnecting (after_seq) and retrying (same request id) on their own
// until every game ends. Then every game must be over, every action the
// server acknowledged must be in the table's log exactly once (and the log
// must hold no player action that was not acknowledged), and the final
// scores must be those of a replay of each log through the engine. Riichi
// and Sichuan tables run side by side, each rule set in its own store.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "authority")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := lis.Addr().String()
	lis.Close()
	data := filepath.Join(dir, "data")
	args := []string{"--data", data, "--round-pause", "1ms", "--claim-dwell", "1ms", "--turn-time", "20s", "--claim-time", "20s",
		"--disconnect-grace", "5m", "--seat-rate", "10000", "--seat-burst", "10000", "--conn-rate", "10000", "--conn-burst", "10000"}
	p := startAuthority(t, bin, addr, args...)

	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	admin, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	const tables = 4
	var ids [tables]string
	var runs [tables][table.NumSeats]*seatRun
	var wg sync.WaitGroup
	var clients []*client.Client
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	for i := range tables {
		tb, _, err := admin.CreateTable(ctx, &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, Seed: seedOf(i), ClaimDwell: durationpb.New(time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = tb.GetTableId()
		var seats [table.NumSeats]client.Seat
		var cs [table.NumSeats]*client.Client
		for s := range seats {
			if cs[s], err = client.Dial(addr); err != nil {
				t.Fatal(err)
			}
			clients = append(clients, cs[s])
			if seats[s], err = cs[s].JoinTable(ctx, ids[i], fmt.Sprint("bot", s), nil); err != nil {
				t.Fatal(err)
			}
		}
		for s, st := range seats {
			r := &seatRun{}
			runs[i][s] = r
			wg.Go(func() { playBot(ctx, cs[s].Follow(st, client.Options{}), r) })
		}
	}

	const scTables = 2
	var scIDs [scTables]string
	var scRuns [scTables][sc.NumSeats]*scSeatRun
	for i := range scTables {
		set := &pb.TableSettings{
			RuleSet: pb.RuleSet_RULE_SET_SICHUAN, Seed: seedOf(10 + i), ClaimDwell: durationpb.New(time.Millisecond),
			Options: &pb.TableSettings_Sichuan{Sichuan: &pb.SichuanOptions{Hands: sichuanHands}},
		}
		tb, _, err := admin.CreateTable(ctx, set)
		if err != nil {
			t.Fatal(err)
		}
		scIDs[i] = tb.GetTableId()
		rules, err := csc.RulesOf(tb.GetSettings())
		if err != nil {
			t.Fatal(err)
		}
		for s := range sc.NumSeats {
			c, err := client.Dial(addr)
			if err != nil {
				t.Fatal(err)
			}
			clients = append(clients, c)
			st, err := c.JoinTable(ctx, scIDs[i], fmt.Sprint("bot", s), nil)
			if err != nil {
				t.Fatal(err)
			}
			r := &scSeatRun{}
			scRuns[i][s] = r
			wg.Go(func() { playSichuanBot(ctx, csc.Follow(c, csc.Game{Rules: rules}, st, client.Options{}), r) })
		}
	}

	ddz := startDoudizhu(ctx, t, addr, &wg, &clients)
	mc := startMCR(ctx, t, addr, admin, &wg, &clients)

	// Kill the server once every table is well into its game: past its
	// first round (129 to 143 public events in these four games; a
	// Sichuan hand has fewer than 200; a Dou Dizhu deal is 40 to 70), so
	// that the restart restores each table from a snapshot.
	for {
		ready := 0
		for _, id := range append(ids[:], scIDs[:]...) {
			tb, err := admin.GetTable(ctx, id)
			if err != nil {
				t.Fatalf("GetTable: %v", err)
			}
			if tb.GetState() == pb.TableState_TABLE_STATE_FINISHED {
				t.Fatalf("table %s finished before the crash: the test would prove nothing", id)
			}
			if tb.GetLastSeq() > 200 {
				ready++
			}
		}
		if ready == tables+scTables && ddz.ready(ctx, t) && mc.ready(ctx, t) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	<-p.exited
	t.Logf("killed the server")

	p = startAuthority(t, bin, addr, args...)
	mc.resume()
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("the games did not end after the restart\n%s", p.log())
	}
	// Each rule set's host logs its own recovery.
	fromSnapshots, hosts := 0, 0
	snapshotsRe := regexp.MustCompile(`"from_snapshots":(\d+)`)
	for _, line := range strings.Split(p.log(), "\n") {
		if strings.Contains(line, `"recovered"`) || strings.Contains(line, "tables recovered") {
			t.Logf("restart: %s", line)
		}
		if m := snapshotsRe.FindStringSubmatch(line); m != nil && strings.Contains(line, "tables recovered") {
			n, _ := strconv.Atoi(m[1])
			fromSnapshots += n
			hosts++
		}
		if strings.Contains(line, "snapshot does not restore") {
			t.Fatalf("restart: %s", line)
		}
	}
	// Five hosts: riichi, Sichuan, MCR, classical (whose own crash test
	// is TestCrashRecoveryClassical: none here) and Dou Dizhu.
	if hosts != 5 || fromSnapshots != tables+scTables+ddzTables+mcrTables {
		t.Fatalf("the restart restored %d tables from snapshots in %d hosts, want %d in 5:\n%s", fromSnapshots, hosts, tables+scTables+ddzTables+mcrTables, p.log())
	}
	for i, id := range ids {
		tb, err := admin.GetTable(ctx, id)
		if err != nil || tb.GetState() != pb.TableState_TABLE_STATE_FINISHED {
			t.Fatalf("table %s after the games: %v, %v", id, tb, err)
		}
		for s, r := range runs[i] {
			if r.err != nil || !r.ended {
				t.Fatalf("table %d seat %d: ended %v, %v", i, s, r.ended, r.err)
			}
			if r.stats.Faults > 0 {
				t.Fatalf("table %d seat %d saw %d inconsistencies", i, s, r.stats.Faults)
			}
		}
	}
	for i, id := range scIDs {
		tb, err := admin.GetTable(ctx, id)
		if err != nil || tb.GetState() != pb.TableState_TABLE_STATE_FINISHED {
			t.Fatalf("sichuan table %s after the games: %v, %v", id, tb, err)
		}
		for s, r := range scRuns[i] {
			if r.err != nil || !r.ended || r.stats.Faults > 0 {
				t.Fatalf("sichuan table %d seat %d: ended %v, %v, %d inconsistencies", i, s, r.ended, r.err, r.stats.Faults)
			}
		}
		// The record of a match that crashed in the middle verifies.
		ex, err := admin.Tables.ExportGame(ctx, &pb.ExportGameRequest{TableId: id, Format: pb.RecordFormat_RECORD_FORMAT_NATIVE})
		if err != nil {
			t.Fatal(err)
		}
		g, err := rsc.Decode([]byte(ex.GetRecord()))
		if err != nil {
			t.Fatal(err)
		}
		if rep, err := rsc.Verify(g); err != nil || rep.Err() != nil || !rep.Replayed || !rep.Chain {
			t.Fatalf("sichuan table %d: Verify = %+v, %v", i, rep, err)
		}
	}
	// Stop the server gracefully and read the logs it left.
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-p.exited; err != nil {
		t.Fatalf("server exit: %v\n%s", err, p.log())
	}
	st, err := store.Open[table.Action](filepath.Join(data, "authority.db"), riichi.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	logs := map[string][]host.Entry[table.Action]{}
	for _, id := range ids {
		// The games are over: Load would pass none of them on.
		if logs[id], err = st.LoadEntries(ctx, id, 0); err != nil {
			t.Fatal(err)
		}
	}
	reconnects := 0
	for i, id := range ids {
		reconnects += checkRiichiLog(t, i, logs[id], runs[i])
	}
	if reconnects == 0 {
		t.Fatal("no client reconnected: the crash happened after the games")
	}
	checkSichuanLogs(t, ctx, data, scIDs[:], scRuns[:])
	ddz.check(ctx, t, data)
	mc.check(ctx, t, data)
}

// checkRiichiLog checks the log of riichi table i (an east-only game)
// against its four clients: every acknowledged action logged once, no
// other action of a seat (no timeout, no bot), and the final scores each
// client saw those of a replay of the log through the engine. It returns
// how often the clients reconnected.
func checkRiichiLog(t *testing.T, i int, es []host.Entry[table.Action], runs [table.NumSeats]*seatRun) int {
	t.Helper()
	var logged [table.NumSeats][]table.Action
	eng, err := table.New(table.Config{Rules: table.TenhouTonpuu})
	if err != nil {
		t.Fatal(err)
	}
	var final []int
	for _, e := range es {
		if e.Kind != host.EntryAction {
			continue
		}
		if e.Actor >= 0 {
			if e.RequestID == "" {
				t.Fatalf("table %d: seat %d was played by the server (%v): a timeout or a bot", i, e.Actor, e.Action)
			}
			logged[e.Actor] = append(logged[e.Actor], e.Action)
		}
		evs, err := eng.Step(e.Action)
		if err != nil {
			t.Fatalf("table %d: replay of %v: %v", i, e.Action, err)
		}
		for _, ev := range evs {
			if g, ok := ev.Body.(table.GameEnded); ok {
				final = g.Scores[:]
			}
		}
	}
	reconnects := 0
	for s, r := range runs {
		reconnects += r.stats.Reconnects
		if !slices.Equal(logged[s], r.acked) {
			t.Fatalf("table %d seat %d: the log holds %d actions, the client had %d acknowledged:\nlog  %v\nacks %v", i, s, len(logged[s]), len(r.acked), logged[s], r.acked)
		}
		if !slices.Equal(r.final, final) {
			t.Fatalf("table %d seat %d: final scores %v, the replayed log gives %v", i, s, r.final, final)
		}
	}
	t.Logf("table %d: %d entries, final %v", i, len(es), final)
	return reconnects
}

// checkSichuanLogs checks the Sichuan store as the riichi one: every
// acknowledged action logged once, nothing else of the seats, and the
// final scores those of a replay through the engine.
func checkSichuanLogs(t *testing.T, ctx context.Context, data string, ids []string, runs [][sc.NumSeats]*scSeatRun) {
	t.Helper()
	st, err := store.Open[sc.Action](filepath.Join(data, "sichuan.db"), sichuan.ActionCodec{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	reconnects := 0
	for i, id := range ids {
		es, err := st.LoadEntries(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		rules := sc.Default
		rules.Hands = sichuanHands
		eng, err := sc.New(sc.Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		var logged [sc.NumSeats][]sc.Action
		var final []int
		for _, e := range es {
			if e.Kind != host.EntryAction {
				continue
			}
			if e.Actor >= 0 {
				if e.RequestID == "" {
					t.Fatalf("sichuan table %d: seat %d was played by the server (%v)", i, e.Actor, e.Action)
				}
				logged[e.Actor] = append(logged[e.Actor], e.Action)
			}
			evs, err := eng.Step(e.Action)
			if err != nil {
				t.Fatalf("sichuan table %d: replay of %v: %v", i, e.Action, err)
			}
			for _, ev := range evs {
				if g, ok := ev.Body.(sc.MatchEnded); ok {
					final = g.Scores[:]
				}
			}
		}
		for s, r := range runs[i] {
			reconnects += r.stats.Reconnects
			if !slices.Equal(logged[s], r.acked) {
				t.Fatalf("sichuan table %d seat %d: the log holds %d actions, the client had %d acknowledged", i, s, len(logged[s]), len(r.acked))
			}
			if !slices.Equal(r.final, final) {
				t.Fatalf("sichuan table %d seat %d: final scores %v, the replayed log gives %v", i, s, r.final, final)
			}
		}
		t.Logf("sichuan table %d: %d entries, final %v", i, len(es), final)
	}
	if reconnects == 0 {
		t.Fatal("no Sichuan client reconnected")
	}
}

// playSichuanBot plays a Sichuan seat as playBot plays a riichi one. In
// the exchange and the void choice every seat chooses at once and each
// choice is public, so an action may be refused as stale: the seat reads
// on and decides again at its next event.
func playSichuanBot(ctx context.Context, s *csc.Session, r *scSeatRun) {
	defer s.Close()
	defer func() { r.stats = s.Stats() }()
	var b botsc.Efficient
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return
		}
		if err != nil {
			r.err = err
			return
		}
		if g, ok := u.Event.Body.(sc.MatchEnded); ok {
			r.final = g.Scores[:]
		}
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		if _, err := s.Act(ctx, a); err == nil {
			r.acked = append(r.acked, a)
		}
	}
}

// playBot plays one seat with the efficient bot through a client session
// until its game ends, recording what the server acknowledged.
func playBot(ctx context.Context, s *client.Session, r *seatRun) {
	defer s.Close()
	defer func() { r.stats = s.Stats() }()
	var b bot.Efficient
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return
		}
		if err != nil {
			r.err = err
			return
		}
		r.events++
		if g, ok := u.Event.Body.(table.GameEnded); ok {
			r.final = g.Scores[:]
		}
		a, ok := b.Act(s.View())
		if !ok {
			continue
		}
		if _, err := s.Act(ctx, a); err == nil {
			r.acked = append(r.acked, a)
		}
	}
}

func seedOf(i int) []byte {
	s := make([]byte, 32)
	s[0], s[1] = byte(i), 0xc5
	return s
}

// The Dou Dizhu part of the crash test: ddzTables matches of three bot
// clients each, on the same server and port.
const ddzTables = 2

type ddzRun struct {
	acked []ddztable.Action
	final [ddztable.NumSeats]int
	ended bool
	stats ddzclient.Stats
	err   error
}

type ddzCrash struct {
	admin *ddzclient.Client
	ids   [ddzTables]string
	runs  [ddzTables][ddztable.NumSeats]*ddzRun
}

func startDoudizhu(ctx context.Context, t *testing.T, addr string, wg *sync.WaitGroup, closers *[]*client.Client) *ddzCrash {
	t.Helper()
	d := &ddzCrash{}
	var err error
	if d.admin, err = ddzclient.Dial(addr); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.admin.Close() })
	for i := range ddzTables {
		r, err := d.admin.Tables.CreateTable(ctx, &ddzpb.CreateTableRequest{Settings: &ddzpb.TableSettings{Deals: 40, Seed: seedOf(10 + i)}})
		if err != nil {
			t.Fatal(err)
		}
		d.ids[i] = r.GetTable().GetTableId()
		for s := range ddztable.NumSeats {
			c, err := ddzclient.Dial(addr)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			seat, err := c.JoinTable(ctx, d.ids[i], fmt.Sprint("ddz", s))
			if err != nil {
				t.Fatal(err)
			}
			run := &ddzRun{}
			d.runs[i][s] = run
			wg.Go(func() { playDoudizhu(ctx, c.Follow(seat, nil), run) })
		}
	}
	return d
}

// ready reports whether every Dou Dizhu match is past its second deal.
func (d *ddzCrash) ready(ctx context.Context, t *testing.T) bool {
	for _, id := range d.ids {
		r, err := d.admin.Tables.GetTable(ctx, &ddzpb.GetTableRequest{TableId: id})
		if err != nil {
			t.Fatalf("GetTable: %v", err)
		}
		if r.GetTable().GetState() == pb.TableState_TABLE_STATE_FINISHED {
			t.Fatalf("Dou Dizhu table %s finished before the crash", id)
		}
		if r.GetTable().GetLastSeq() < 150 {
			return false
		}
	}
	return true
}

// check holds the Dou Dizhu logs against the clients: every acknowledged
// action logged once, no player action logged unacknowledged, and the
// final scores those of a replay through the engine.
func (d *ddzCrash) check(ctx context.Context, t *testing.T, data string) {
	t.Helper()
	st, err := store.Open[ddztable.Action](filepath.Join(data, "doudizhu.db"), hosting.Codec{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, id := range d.ids {
		es, err := st.LoadEntries(ctx, id, 0)
		if err != nil {
			t.Fatal(err)
		}
		eng, err := ddztable.New(ddztable.Config{Rules: ddzRules()})
		if err != nil {
			t.Fatal(err)
		}
		var logged [ddztable.NumSeats][]ddztable.Action
		for _, e := range es {
			if e.Kind != host.EntryAction {
				continue
			}
			if e.Actor >= 0 {
				if e.RequestID == "" {
					t.Fatalf("Dou Dizhu table %d: seat %d was played by the server (%v)", i, e.Actor, e.Action)
				}
				logged[e.Actor] = append(logged[e.Actor], e.Action)
			}
			if _, err := eng.Step(e.Action); err != nil {
				t.Fatalf("Dou Dizhu table %d: replay of %v: %v", i, e.Action, err)
			}
		}
		if eng.Phase() != ddztable.MatchOver {
			t.Fatalf("Dou Dizhu table %d: the replayed log ends in %v", i, eng.Phase())
		}
		for s, r := range d.runs[i] {
			if r.err != nil || !r.ended || r.stats.Faults > 0 {
				t.Fatalf("Dou Dizhu table %d seat %d: ended %v, %d faults, %v", i, s, r.ended, r.stats.Faults, r.err)
			}
			if !slices.Equal(logged[s], r.acked) {
				t.Fatalf("Dou Dizhu table %d seat %d: the log holds %d actions, the client had %d acknowledged", i, s, len(logged[s]), len(r.acked))
			}
			if r.final != eng.Scores() {
				t.Fatalf("Dou Dizhu table %d seat %d: final scores %v, the replayed log gives %v", i, s, r.final, eng.Scores())
			}
		}
		t.Logf("Dou Dizhu table %d: %d entries, final %v", i, len(es), eng.Scores())
	}
}

func ddzRules() ddztable.Rules {
	r := ddztable.Classic
	r.Deals = 40
	return r
}

// playDoudizhu plays one Dou Dizhu seat with package bot through a
// session until the match ends.
func playDoudizhu(ctx context.Context, s *ddzclient.Session, r *ddzRun) {
	defer s.Close()
	defer func() { r.stats = s.Stats() }()
	var b ddzbot.Bot
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			r.ended = true
			return
		}
		if err != nil {
			r.err = err
			return
		}
		if m := u.Event.GetMatchEnded(); m != nil {
			for i, v := range m.GetScores() {
				r.final[i] = int(v)
			}
		}
		if s.Over() || !s.MyTurn() || (u.Snapshot == nil && u.Event.GetOffer() == nil) {
			continue
		}
		a, err := b.Act(s.View())
		if err != nil {
			continue
		}
		if _, err := s.Act(ctx, a); err == nil {
			r.acked = append(r.acked, a)
		}
	}
}
