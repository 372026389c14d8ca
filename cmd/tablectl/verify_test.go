package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

const seededRecord = "../../testdata/records/seeded-game.jsonl"

func TestVerifyCommand(t *testing.T) {
	var out, errOut bytes.Buffer
	if err := run([]string{"verify", seededRecord}, nil, &out, &errOut); err != nil {
		t.Fatalf("tablectl verify %s: %v (%s)", seededRecord, err, errOut.String())
	}
	if got := out.String(); !strings.HasPrefix(got, "table-0001: ok: 15 rounds") || !strings.Contains(got, "server seed") || !strings.Contains(got, "replay agrees") {
		t.Errorf("tablectl verify = %q", got)
	}
}

// TestVerifyCommandTampered changes one thing of the seeded record at a
// time: verify fails and its first line of problems says where.
func TestVerifyCommandTampered(t *testing.T) {
	orig, err := os.ReadFile(seededRecord)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		tamper func(g map[string]any)
		where  string
	}{
		{"one drawn tile", func(g map[string]any) {
			r := round(g, 2)
			d := r["draws"].(string)
			r["draws"] = d[:10] + other(d[10:12]) + d[12:]
		}, "round 2: draws[5]: record"},
		{"one dealt tile", func(g map[string]any) {
			r := round(g, 4)
			h := r["hands"].([]any)
			s := h[1].(string) // starts with a digit: make it another
			h[1] = string('1'+(s[0]-'0')%9) + s[1:]
		}, "round 4: hands[1]: seat 1 was dealt"},
		{"a wall seed", func(g map[string]any) {
			r := round(g, 5)
			r["wall_seed"] = flip(r["wall_seed"].(string))
		}, "round 5: commitment:"},
		{"a commitment", func(g map[string]any) {
			r := round(g, 7)
			r["commitment"] = flip(r["commitment"].(string))
		}, "round 7: commitment:"},
		{"the server seed", func(g map[string]any) {
			g["server_seed"] = flip(g["server_seed"].(string))
		}, "game: seed_commitment:"},
	}
	for _, tt := range tests {
		var g map[string]any
		if err := json.Unmarshal(orig, &g); err != nil {
			t.Fatal(err)
		}
		tt.tamper(g)
		in, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		var out, errOut bytes.Buffer
		err = run([]string{"verify"}, bytes.NewReader(in), &out, &errOut)
		if !errors.Is(err, errVerify) {
			t.Errorf("verify with %s changed: error %v, want errVerify", tt.name, err)
		}
		lines := strings.Split(out.String(), "\n")
		if len(lines) < 2 || !strings.Contains(lines[0], "FAILED") || !strings.HasPrefix(strings.TrimSpace(lines[1]), tt.where) {
			t.Errorf("verify with %s changed = %q, want FAILED then %q", tt.name, out.String(), tt.where)
		}
	}
}

func round(g map[string]any, i int) map[string]any {
	return g["rounds"].([]any)[i].(map[string]any)
}

// other is a tile of another face than t ("2s" -> "3s").
func other(t string) string {
	n := t[0] + 1
	if n > '7' {
		n = '1'
	}
	return string(n) + t[1:]
}

func flip(h string) string {
	if h[0] == '0' {
		return "1" + h[1:]
	}
	return "0" + h[1:]
}

// TestVerifyCommandSeedless: the shared real games are replays without
// seeds: verify says they are unverifiable and fails.
func TestVerifyCommandSeedless(t *testing.T) {
	in, err := os.ReadFile("../../testdata/replays/tenhou-games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	first := in[:bytes.IndexByte(in, '\n')+1]
	var out, errOut bytes.Buffer
	err = run([]string{"verify", "--json"}, bytes.NewReader(first), &out, &errOut)
	if !errors.Is(err, errVerify) {
		t.Fatalf("verify of a seedless record: error %v, want errVerify", err)
	}
	var rep struct {
		Rounds       int
		Unverifiable []int
		Problems     []any
		Replayed     bool
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Rounds == 0 || len(rep.Unverifiable) != rep.Rounds || len(rep.Problems) != 0 || !rep.Replayed {
		t.Errorf("verify --json = %s", out.String())
	}
}

// TestReplayReadsNativeRecords: a native record is a replay-contract game
// with more fields, so tablectl replay replays it.
func TestReplayReadsNativeRecords(t *testing.T) {
	in, err := os.ReadFile(seededRecord)
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"replay"}, bytes.NewReader(in), &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), `{"id":"table-0001","ok":true`) {
		t.Errorf("tablectl replay of a native record = %.200s", out.String())
	}
}
