package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReplayCommand runs tablectl replay on the shared real games, as the
// contract says: one outcome per game, in order, every one ok.
func TestReplayCommand(t *testing.T) {
	in, err := os.ReadFile("../../testdata/replays/tenhou-games.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := run([]string{"replay"}, bytes.NewReader(in), &out, &errOut); err != nil {
		t.Fatalf("tablectl replay: %v (stderr %q)", err, errOut.String())
	}
	var ids []string
	sc := bufio.NewScanner(bytes.NewReader(in))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, g.ID)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != len(ids) {
		t.Fatalf("tablectl replay wrote %d lines for %d games", len(lines), len(ids))
	}
	for i, l := range lines {
		var o struct {
			ID          string          `json:"id"`
			OK          bool            `json:"ok"`
			Rounds      []struct{}      `json:"rounds"`
			FinalScores json.RawMessage `json:"final_scores"`
			Error       string          `json:"error"`
		}
		if err := json.Unmarshal([]byte(l), &o); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if o.ID != ids[i] || !o.OK || len(o.Rounds) == 0 || o.FinalScores == nil {
			t.Errorf("line %d = %.200s, want game %s ok with rounds and final scores", i, l, ids[i])
		}
	}
}

func TestReplayCommandErrors(t *testing.T) {
	in := `{"id": "bad", "rules": {"variant": "riichi", "aka": true, "kuitan": true, "length": "hanchan"}, "start_scores": [25000,25000,25000,25000], "rounds": []}
not json

`
	var out, errOut bytes.Buffer
	if err := run([]string{"replay"}, strings.NewReader(in), &out, &errOut); err != nil {
		t.Fatalf("tablectl replay: %v", err)
	}
	want := `{"id":"bad","ok":false,"round":0,"step":0,"error":"round 0 step 0: replay: mismatch: no rounds"}
{"id":"line 2","ok":false,"round":0,"step":0,"error":"replay: decode game: invalid character 'o' in literal null (expecting 'u')"}
`
	if got := out.String(); got != want {
		t.Errorf("tablectl replay on bad input wrote\n%s\nwant\n%s", got, want)
	}
	if err := run([]string{"replay", "extra"}, strings.NewReader(""), &out, &errOut); err == nil {
		t.Errorf("tablectl replay extra: no usage error")
	}
}

// TestReplayDecodeErrorKeepsID answers a game that is a JSON object but
// does not decode with its own id, as the contract's failure object has
// it; only a line that is no object at all is named by its line number.
func TestReplayDecodeErrorKeepsID(t *testing.T) {
	in := `{"id": "g7", "start_scores": "25000"}
{"start_scores": 5}
`
	var out, errOut bytes.Buffer
	if err := run([]string{"replay"}, strings.NewReader(in), &out, &errOut); err != nil {
		t.Fatalf("tablectl replay: %v", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Fatalf("tablectl replay wrote %q, want two lines", out.String())
	}
	for i, want := range []string{"g7", "line 2"} {
		var o struct {
			ID    string `json:"id"`
			OK    bool   `json:"ok"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal([]byte(lines[i]), &o); err != nil {
			t.Fatal(err)
		}
		if o.ID != want || o.OK || o.Error == "" {
			t.Errorf("line %d = %s, want id %q, not ok, an error", i+1, lines[i], want)
		}
	}
}

// TestReplayReadErrorKeepsAnswers fails reading stdin after a game: the
// command reports the error, and the answer of the game before it is
// written all the same.
func TestReplayReadErrorKeepsAnswers(t *testing.T) {
	boom := errors.New("boom")
	in := io.MultiReader(strings.NewReader(`{"id": "g1", "rounds": []}`+"\n"), iotest.ErrReader(boom))
	var out bytes.Buffer
	if err := run([]string{"replay"}, in, &out, io.Discard); !errors.Is(err, boom) {
		t.Errorf("replay on a failing stdin = %v, want %v", err, boom)
	}
	if !strings.Contains(out.String(), `"id":"g1"`) {
		t.Errorf("replay on a failing stdin wrote %q, want the answer about g1", out.String())
	}
}
