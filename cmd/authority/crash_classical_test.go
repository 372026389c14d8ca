package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	"github.com/mahjong-authority/authority/internal/client"
	cclassical "github.com/mahjong-authority/authority/internal/client/classical"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset/classical"
	"github.com/mahjong-authority/authority/internal/store"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// classicalRun is what one classical bot client saw.
type classicalRun struct {
	acked []ct.Action
	final []int
	ended bool
	stats client.Stats
	err   error
}

// TestCrashRecoveryClassical is the crash test with classical tables: the
// real binary with a data directory, tables of four classical bot clients
// over gRPC, kill -9 in the middle of their games, a restart on the same
// data (DATA/classical.db), and the clients reconnecting and retrying on
// their own. Every game must end for every seat without an inconsistency,
// the restart must restore each table from a snapshot, and the store's log
// must replay through the engine to the scores the clients saw, holding
// exactly the actions the server acknowledged.
func TestCrashRecoveryClassical(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the server binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "authority")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
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

	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	admin, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	const tables = 2
	var ids [tables]string
	var runs [tables][ct.NumSeats]*classicalRun
	var wg sync.WaitGroup
	var clients []*client.Client
	defer func() {
		for _, c := range clients {
			c.Close()
		}
	}()
	rules := classical.Defaults
	rules.Rounds = 2
	for i := range tables {
		tb, _, err := admin.CreateTable(ctx, &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, Seed: seedOf(10 + i),
			Options: &pb.TableSettings_Classical{Classical: classical.PB(rules)}, ClaimDwell: durationpb.New(time.Millisecond)})
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = tb.GetTableId()
		var seats [ct.NumSeats]client.Seat
		var cs [ct.NumSeats]*client.Client
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
			r := &classicalRun{}
			runs[i][s] = r
			wg.Go(func() { playClassical(ctx, cclassical.Follow(cs[s], st, client.Options{}), r) })
		}
	}

	// Kill the server once every table is past its first hands, so that
	// the restart restores each from a snapshot.
	for {
		ready := 0
		for _, id := range ids {
			tb, err := admin.GetTable(ctx, id)
			if err != nil {
				t.Fatalf("GetTable: %v", err)
			}
			if tb.GetState() == pb.TableState_TABLE_STATE_FINISHED {
				t.Fatalf("table %s finished before the crash: the test would prove nothing", id)
			}
			if tb.GetLastSeq() > 400 {
				ready++
			}
		}
		if ready == tables {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	if err := p.cmd.Process.Kill(); err != nil { // SIGKILL
		t.Fatal(err)
	}
	<-p.exited
	p = startAuthority(t, bin, addr, args...)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
		t.Fatalf("the games did not end after the restart\n%s", p.log())
	}
	restored := false
	for _, line := range strings.Split(p.log(), "\n") {
		if strings.Contains(line, "tables recovered") && strings.Contains(line, fmt.Sprintf(`"from_snapshots":%d`, tables)) {
			restored = true
		}
		if strings.Contains(line, "snapshot does not restore") {
			t.Fatalf("restart: %s", line)
		}
	}
	if !restored {
		t.Fatalf("the restart did not restore every classical table from a snapshot:\n%s", p.log())
	}
	for i, rs := range runs {
		for s, r := range rs {
			if r.err != nil || !r.ended || r.stats.Faults > 0 {
				t.Fatalf("table %d seat %d: ended %v, %v, %d inconsistencies", i, s, r.ended, r.err, r.stats.Faults)
			}
		}
	}
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-p.exited; err != nil {
		t.Fatalf("server exit: %v\n%s", err, p.log())
	}
	st, err := store.Open[ct.Action](filepath.Join(data, "classical.db"), classical.ActionCodec{})
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
		eng, err := ct.New(ct.Config{Rules: rules})
		if err != nil {
			t.Fatal(err)
		}
		var logged [ct.NumSeats][]ct.Action
		var final []int
		for _, e := range es {
			if e.Kind != host.EntryAction {
				continue
			}
			if e.Actor >= 0 {
				if e.RequestID == "" {
					t.Fatalf("table %d: seat %d was played by the server (%v)", i, e.Actor, e.Action)
				}
				logged[e.Actor] = append(logged[e.Actor], e.Action)
			}
			evs, err := eng.Step(e.Action)
			if err != nil {
				t.Fatalf("table %d: replay of %v: %v", i, e.Action, err)
			}
			for _, ev := range evs {
				if g, ok := ev.Body.(ct.GameEnded); ok {
					final = g.Scores[:]
				}
			}
		}
		for s, r := range runs[i] {
			reconnects += r.stats.Reconnects
			if !slices.Equal(logged[s], r.acked) {
				t.Fatalf("table %d seat %d: the log holds %d actions, the client had %d acknowledged", i, s, len(logged[s]), len(r.acked))
			}
			if !slices.Equal(r.final, final) {
				t.Fatalf("table %d seat %d: final scores %v, the replayed log gives %v", i, s, r.final, final)
			}
		}
	}
	if reconnects == 0 {
		t.Fatal("no client reconnected: the crash happened after the games")
	}
}

// playClassical plays one classical seat with the bot through a client
// session until its game ends, recording what the server acknowledged.
func playClassical(ctx context.Context, s *cclassical.Session, r *classicalRun) {
	defer s.Close()
	defer func() { r.stats = s.Stats() }()
	var b botc.Efficient
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
		if g, ok := u.Event.Body.(ct.GameEnded); ok {
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
