package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/servertest"
)

const sharedGames = "../../testdata/replays/tenhou-games.jsonl"

// TestExportOffline exports the shared real games from stdin: natively
// each line is its input without the record and source fields; as
// tenhou.net/6 logs and mjai logs one per game.
func TestExportOffline(t *testing.T) {
	in, err := os.ReadFile(sharedGames)
	if err != nil {
		t.Fatal(err)
	}
	inLines := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
	var out, errOut bytes.Buffer
	if err := run([]string{"export", "--format", "native"}, bytes.NewReader(in), &out, &errOut); err != nil {
		t.Fatalf("export native: %v (%s)", err, errOut.String())
	}
	outLines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(outLines) != len(inLines) {
		t.Fatalf("export native wrote %d games for %d", len(outLines), len(inLines))
	}
	for i := range inLines {
		var want, got map[string]any
		if err := json.Unmarshal([]byte(inLines[i]), &want); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(outLines[i]), &got); err != nil {
			t.Fatal(err)
		}
		delete(want, "source")
		for _, r := range want["rounds"].([]any) {
			delete(r.(map[string]any), "record")
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("game %d: the native export differs from the record", i)
		}
	}

	out.Reset()
	if err := run([]string{"export", "--format", "tenhou"}, bytes.NewReader(in), &out, &errOut); err != nil {
		t.Fatalf("export tenhou: %v", err)
	}
	for i, l := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var log struct {
			Rule struct{ Disp string }
			Log  [][]any
		}
		if err := json.Unmarshal([]byte(l), &log); err != nil || len(log.Log) == 0 || log.Rule.Disp != "般南喰赤" {
			t.Fatalf("tenhou log %d: %v, %d rounds, rule %q", i, err, len(log.Log), log.Rule.Disp)
		}
	}

	dir := t.TempDir()
	if err := run([]string{"export", "--format", "mjai", "--out", dir}, bytes.NewReader(in), &out, &errOut); err != nil {
		t.Fatalf("export mjai: %v", err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.mjson"))
	if len(files) != len(inLines) {
		t.Errorf("export mjai --out wrote %d files for %d games", len(files), len(inLines))
	}
}

func TestExportUsage(t *testing.T) {
	for _, args := range [][]string{{"export", "--format", "mjlog"}, {"export", "extra"}} {
		var out, errOut bytes.Buffer
		if err := run(args, strings.NewReader(""), &out, &errOut); err != errUsage {
			t.Errorf("tablectl %v = %v, want usage", args, err)
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"export"}, strings.NewReader("not json\n"), &out, &errOut); err == nil {
		t.Errorf("export of a malformed record: no error")
	}
}

// TestExportFromServer runs a server in-process, plays a table of bots to
// the end, exports its game with tablectl and verifies the record.
func TestExportFromServer(t *testing.T) {
	srv := servertest.Start(t, servertest.Riichi())
	c := pb.NewTableServiceClient(srv.Dial())
	ctx := context.Background()
	cr, err := c.CreateTable(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{Rules: pb.RulePreset_RULE_PRESET_TENHOU_TONPUU, FillWithBots: true}})
	if err != nil {
		t.Fatal(err)
	}
	id := cr.GetTable().GetTableId()
	if _, err := c.StartTable(ctx, &pb.StartTableRequest{TableId: id, Token: cr.GetOwnerToken()}); err != nil {
		t.Fatal(err)
	}
	st, err := c.Spectate(ctx, &pb.SpectateRequest{TableId: id})
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := st.Recv(); err != nil {
			break // the stream ends after the game's last event
		}
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"export", "--table", id, "--addr", srv.Addr}, nil, &out, &errOut); err != nil {
		t.Fatalf("export --table: %v (%s)", err, errOut.String())
	}
	var vout bytes.Buffer
	if err := run([]string{"verify"}, bytes.NewReader(out.Bytes()), &vout, &errOut); err != nil {
		t.Fatalf("verify of the exported game: %v: %s", err, vout.String())
	}
	if !strings.Contains(vout.String(), id+": ok:") || !strings.Contains(vout.String(), "server seed") {
		t.Errorf("verify = %q", vout.String())
	}
	for _, f := range []string{"tenhou", "mjai"} {
		out.Reset()
		if err := run([]string{"export", "--table", id, "--addr", srv.Addr, "--format", f}, nil, &out, &errOut); err != nil || out.Len() == 0 {
			t.Errorf("export --format %s: %v, %d bytes", f, err, out.Len())
		}
	}
	if err := run([]string{"export", "--table", "nope", "--addr", srv.Addr}, nil, &out, &errOut); err == nil {
		t.Errorf("export of an unknown table: no error")
	}
}
