package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	ddzpb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"

	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/servertest"
)

// TestDdzBots plays Dou Dizhu matches with tablectl ddz bots: every match
// ends, nothing goes wrong, and the summary line is bots'.
func TestDdzBots(t *testing.T) {
	cfg := servertest.Riichi()
	cfg.Defaults = server.StandardDefaults
	addr := servertest.StartWithDoudizhu(t, cfg).Addr
	for _, bidding := range []string{"points", "call_rob"} {
		var out, errOut bytes.Buffer
		err := run([]string{"ddz", "bots", "--addr", addr, "--tables", "3", "--games", "2", "--deals", "2", "--bidding", bidding, "--progress", "100ms"}, strings.NewReader(""), &out, &errOut)
		if err != nil {
			t.Fatalf("%s: %v\n%s", bidding, err, errOut.String())
		}
		lines := strings.Split(strings.TrimRight(out.String(), "\n"), "\n")
		var sum botsSummary
		dec := json.NewDecoder(strings.NewReader(lines[len(lines)-1]))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&sum); err != nil {
			t.Fatalf("%s: last line %q: %v", bidding, lines[len(lines)-1], err)
		}
		if sum.Tables != 3 || sum.Games != 6 || sum.Errors != 0 || sum.Rounds < 12 || sum.Actions < 100 || sum.ActP50ms <= 0 || sum.EventP99ms <= 0 {
			t.Errorf("%s: summary %+v", bidding, sum)
		}
	}
}

// TestDdzPlayExportVerify plays a seat in the terminal (always the first
// choice offered), exports the record and verifies it; a tampered record
// fails.
func TestDdzPlayExportVerify(t *testing.T) {
	cfg := servertest.Riichi()
	cfg.Defaults = server.StandardDefaults
	s := servertest.StartWithDoudizhu(t, cfg)
	var out, errOut bytes.Buffer
	input := strings.Repeat("1\n", 200)
	if err := run([]string{"ddz", "play", "--addr", s.Addr, "--deals", "2"}, strings.NewReader(input), &out, &errOut); err != nil {
		t.Fatalf("play: %v\n%s\n%s", err, out.String(), errOut.String())
	}
	if !strings.Contains(out.String(), "match over") || !strings.Contains(out.String(), "Your hand:") {
		t.Fatalf("play output:\n%s", out.String())
	}
	id := strings.Fields(strings.TrimPrefix(out.String(), "Table "))[0]
	id = strings.TrimSuffix(id, ":")
	var rec bytes.Buffer
	if err := run([]string{"ddz", "export", "--addr", s.Addr, "--table", id}, strings.NewReader(""), &rec, &errOut); err != nil {
		t.Fatalf("export: %v\n%s", err, errOut.String())
	}
	var rep bytes.Buffer
	if err := run([]string{"verify"}, bytes.NewReader(rec.Bytes()), &rep, &errOut); err != nil {
		t.Fatalf("verify: %v\n%s", err, rep.String())
	}
	if !strings.Contains(rep.String(), "ok (Dou Dizhu)") || !strings.Contains(rep.String(), "derives from the committed server seed") {
		t.Fatalf("verify: %s", rep.String())
	}
	tampered := strings.Replace(rec.String(), `"moves":["0 `, `"moves":["0 pass","0 `, 1)
	tampered = strings.Replace(tampered, `"moves":["1 `, `"moves":["1 pass","1 `, 1)
	tampered = strings.Replace(tampered, `"moves":["2 `, `"moves":["2 pass","2 `, 1)
	rep.Reset()
	if err := run([]string{"verify"}, strings.NewReader(tampered), &rep, &errOut); err == nil || !strings.Contains(rep.String(), "FAILED") {
		t.Fatalf("verify of a tampered record: %v\n%s", err, rep.String())
	}
}

// TestDdzWatch follows a table of three server bots to its end.
func TestDdzWatch(t *testing.T) {
	cfg := servertest.Riichi()
	cfg.Defaults = server.StandardDefaults
	cfg.Defaults.SpectatorDelay = time.Millisecond
	cfg.Defaults.RoundPause = time.Millisecond
	s := servertest.StartWithDoudizhu(t, cfg)
	r, err := s.Doudizhu.CreateTable(context.Background(), &ddzpb.CreateTableRequest{Settings: &ddzpb.TableSettings{FillWithBots: true, Deals: 2}})
	if err != nil {
		t.Fatal(err)
	}
	id := r.GetTable().GetTableId()
	if _, err := s.Doudizhu.StartTable(context.Background(), &ddzpb.StartTableRequest{TableId: id, Token: r.GetOwnerToken()}); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"ddz", "watch", "--addr", s.Addr, "--table", id}, strings.NewReader(""), &out, &errOut); err != nil {
		t.Fatalf("watch: %v\n%s", err, errOut.String())
	}
	if !strings.Contains(out.String(), "is the landlord") || !strings.Contains(out.String(), "match over") || strings.Contains(out.String(), "your cards") {
		t.Fatalf("watch output:\n%s", out.String())
	}
}
