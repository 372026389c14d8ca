package record

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/replay"
)

const gamesFile = "../../testdata/replays/tenhou-games.jsonl"

// readLines returns the lines of the shared real games.
func readLines(t testing.TB) [][]byte {
	t.Helper()
	f, err := os.Open(gamesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines [][]byte
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// withoutDiagnostics decodes a shared record as plain JSON and drops the
// fields that are not part of the contract: the game's source and each
// round's record (Tenhou's own yaku and payments).
func withoutDiagnostics(t *testing.T, line []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "source")
	for _, r := range m["rounds"].([]any) {
		delete(r.(map[string]any), "record")
	}
	return m
}

// TestReplayedGamesMatchTheirRecords replays each of the 99 shared games
// through the table with a Recorder and checks that the native record it
// writes is the original record, field for field: hands, draws, dora and
// ura indicators, replacement tiles, actions, results and final scores.
func TestReplayedGamesMatchTheirRecords(t *testing.T) {
	lines := readLines(t)
	if len(lines) != 99 {
		t.Fatalf("%s has %d games, want 99", gamesFile, len(lines))
	}
	rounds := 0
	for _, line := range lines {
		c, err := replay.Decode(line)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Replay(c)
		if err != nil {
			t.Errorf("Replay(%s) error %v", c.ID, err)
			continue
		}
		rounds += len(g.Rounds)
		b, err := Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		want := withoutDiagnostics(t, line)
		if !reflect.DeepEqual(got, want) {
			reportDiff(t, c.ID, got, want)
		}
	}
	if rounds != 1028 {
		t.Errorf("recorded %d rounds, want 1028", rounds)
	}
}

// reportDiff names the first differing field of two decoded games.
func reportDiff(t *testing.T, id string, got, want map[string]any) {
	t.Helper()
	for k := range want {
		if k == "rounds" {
			continue
		}
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("game %s: %s = %v, want %v", id, k, got[k], want[k])
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("game %s: extra field %s = %v", id, k, got[k])
		}
	}
	gr, wr := got["rounds"].([]any), want["rounds"].([]any)
	if len(gr) != len(wr) {
		t.Errorf("game %s: %d rounds, want %d", id, len(gr), len(wr))
		return
	}
	for i := range wr {
		g, w := gr[i].(map[string]any), wr[i].(map[string]any)
		for k := range w {
			if k == "actions" {
				ga, wa := g[k].([]any), w[k].([]any)
				for j := range min(len(ga), len(wa)) {
					if !reflect.DeepEqual(ga[j], wa[j]) {
						t.Errorf("game %s round %d action %d = %v, want %v", id, i, j, ga[j], wa[j])
						return
					}
				}
				if len(ga) != len(wa) {
					t.Errorf("game %s round %d: %d actions, want %d", id, i, len(ga), len(wa))
					return
				}
				continue
			}
			if !reflect.DeepEqual(g[k], w[k]) {
				t.Errorf("game %s round %d: %s = %v, want %v", id, i, k, g[k], w[k])
				return
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				t.Errorf("game %s round %d: extra field %s = %v", id, i, k, g[k])
				return
			}
		}
	}
}
