package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/classical"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// classicalServer starts a server hosting riichi and classical tables.
func classicalServer(t *testing.T) string {
	t.Helper()
	return servertest.Start(t, server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard()), classical.New(classical.Standard())}}).Addr
}

// TestBotsClassical plays classical tables of four bot clients over gRPC:
// every game ends and no client sees anything inconsistent.
func TestBotsClassical(t *testing.T) {
	addr := classicalServer(t)
	sum, stderr, err := runBotsOn(t, "--addr", addr, "--tables", "2", "--games", "1", "--rules", "classical", "--seed", "classical", "--progress", "1s")
	if err != nil {
		t.Fatalf("bots: %v\n%s", err, stderr)
	}
	if sum.Tables != 2 || sum.Games != 2 || sum.Errors != 0 || sum.Rounds < 8 || sum.Actions < 100 {
		t.Errorf("summary %+v: want 2 tables, 2 games of at least 4 hands, no error", sum)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"bots", "--addr", addr, "--rules", "classical", "--bot", "random"}, strings.NewReader(""), &out, &errOut); err == nil {
		t.Errorf("bots --rules classical --bot random accepted")
	}
}

// TestWatchExportVerifyClassical watches a classical table of server bots
// to its end, then exports its record and verifies it.
func TestWatchExportVerifyClassical(t *testing.T) {
	addr := classicalServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := client.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	set := &pb.TableSettings{RuleSet: pb.RuleSet_RULE_SET_CLASSICAL, FillWithBots: true, Seed: bytes.Repeat([]byte{5}, 32),
		Options: &pb.TableSettings_Classical{Classical: &pb.ClassicalOptions{Rounds: 1}}}
	tb, owner, err := c.CreateTable(ctx, set)
	if err != nil {
		t.Fatal(err)
	}
	id := tb.GetTableId()
	done := make(chan error, 1)
	var out, errOut bytes.Buffer
	go func() {
		done <- run([]string{"watch", "--addr", addr, "--table", id, "--board"}, strings.NewReader(""), &out, &errOut)
	}()
	time.Sleep(100 * time.Millisecond)
	if err := c.StartTable(ctx, id, owner); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("watch: %v\n%s", err, errOut.String())
		}
	case <-ctx.Done():
		t.Fatal("watch did not end")
	}
	w := out.String()
	for _, want := range []string{"is FISHING", "goes MAH JONG", "MJ ", "points", "doubles", "== final scores"} {
		if !strings.Contains(w, want) {
			t.Errorf("watch output lacks %q:\n%s", want, w)
		}
	}
	dir := t.TempDir()
	var exp bytes.Buffer
	if err := run([]string{"export", "--addr", addr, "--table", id, "--format", "native"}, strings.NewReader(""), &exp, &errOut); err != nil {
		t.Fatalf("export: %v\n%s", err, errOut.String())
	}
	file := filepath.Join(dir, "game.jsonl")
	if err := os.WriteFile(file, exp.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var rep bytes.Buffer
	if err := run([]string{"verify", file}, strings.NewReader(""), &rep, &errOut); err != nil {
		t.Fatalf("verify: %v\n%s%s", err, rep.String(), errOut.String())
	}
	if !strings.Contains(rep.String(), ": ok: ") {
		t.Errorf("verify report:\n%s", rep.String())
	}
	// A record changed by one point fails.
	bad := strings.Replace(exp.String(), `"deltas":[`, `"deltas":[1`, 1)
	var rep2 bytes.Buffer
	if err := run([]string{"verify"}, strings.NewReader(bad), &rep2, &errOut); err == nil {
		t.Errorf("a tampered record verified:\n%s", rep2.String())
	}
}

// TestPlayClassical plays `tablectl play --rules classical` against a
// real server to the end of a game, answering every prompt through its
// input: the first choice (Mah Jong, fishing, a kong or a discard) or
// pass.
func TestPlayClassical(t *testing.T) {
	addr := classicalServer(t)
	in, feed := io.Pipe()
	out := &answerer{answers: make(chan string, 1)}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range out.answers {
			if _, err := io.WriteString(feed, s); err != nil {
				return
			}
		}
	}()
	var errOut bytes.Buffer
	err := run([]string{"play", "--addr", addr, "--rules", "classical", "--seed", "classical play", "--round-pause", "1ms"}, in, out, &errOut)
	close(out.answers)
	feed.Close()
	<-done
	text := out.buf.String()
	if err != nil {
		t.Fatalf("play: %v\nstderr %s\nstdout tail %s", err, errOut.String(), tail(text, 2000))
	}
	if out.prompts < 20 {
		t.Errorf("%d prompts, want a whole game's", out.prompts)
	}
	for _, want := range []string{"| hand", "bonus [", "1) ", "round, East is", "scores", "== final scores"} {
		if !strings.Contains(text, want) {
			t.Errorf("output has no %q:\n%s", want, tail(text, 2000))
		}
	}
	if os.Getenv("SHOW_PLAY") != "" {
		t.Log(text)
	}
}
