package main

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/record"
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
