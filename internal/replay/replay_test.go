package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

const gamesFile = "../../testdata/replays/tenhou-games.jsonl"

// gameLines returns the lines of the shared games file, one game each.
func gameLines(t testing.TB) [][]byte {
	t.Helper()
	data, err := os.ReadFile(gamesFile)
	if err != nil {
		t.Fatal(err)
	}
	var lines [][]byte
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		lines = append(lines, bytes.Clone(sc.Bytes()))
	}
	return lines
}

func loadGames(t testing.TB) []*Game {
	t.Helper()
	var games []*Game
	for _, l := range gameLines(t) {
		g, err := Decode(l)
		if err != nil {
			t.Fatal(err)
		}
		games = append(games, g)
	}
	return games
}

// TestReplayAll replays every shared real game: each must replay with ok,
// round by round on deltas and on final scores.
func TestReplayAll(t *testing.T) {
	games := loadGames(t)
	rounds, bad := 0, 0
	for _, g := range games {
		o := Play(g)
		if !o.OK {
			bad++
			t.Errorf("%s: %s", g.ID, o.Error)
			continue
		}
		rounds += len(o.Rounds)
	}
	if len(games) != 99 || (bad == 0 && rounds != 1028) {
		t.Errorf("replayed %d games, %d rounds; want 99 games, 1028 rounds", len(games), rounds)
	}
}

// TestPlayMismatch checks that a record the table disagrees with is
// reported at the right round and step, with ok false.
func TestPlayMismatch(t *testing.T) {
	games := loadGames(t)
	tests := []struct {
		name        string
		edit        func(g *Game)
		round, step int
	}{
		{"delta", func(g *Game) { g.Rounds[1].Result.Deltas[0] += 100 }, 1, len(games[0].Rounds[1].Actions)},
		{"illegal discard", func(g *Game) {
			a := &g.Rounds[0].Actions[3]
			a.Tile, a.Tsumogiri = "9z", false
		}, 0, 3},
		{"refused discard", func(g *Game) {
			for i, a := range g.Rounds[2].Actions {
				if a.Type == "discard" {
					g.Rounds[2].Actions[i].Seat = (a.Seat + 1) % 4
					return
				}
			}
		}, 2, 0},
		{"game goes on", func(g *Game) { g.Rounds = g.Rounds[:len(g.Rounds)-1] }, len(games[0].Rounds) - 2, len(games[0].Rounds[len(games[0].Rounds)-2].Actions)},
		{"final scores", func(g *Game) { g.FinalScores[0]++ }, len(games[0].Rounds) - 1, len(games[0].Rounds[len(games[0].Rounds)-1].Actions)},
	}
	for _, tt := range tests {
		// A fresh copy of the first game for each case.
		g := loadGames(t)[0]
		tt.edit(g)
		o := Play(g)
		if o.OK || o.Round == nil || o.Step == nil || *o.Round != tt.round || *o.Step != tt.step {
			got := "ok"
			if !o.OK {
				got = o.Error
			}
			t.Errorf("%s: Play() = %v, want a mismatch at round %d step %d", tt.name, got, tt.round, tt.step)
		}
	}
}

func TestOutcomeJSON(t *testing.T) {
	zero, three := 0, 3
	final := [4]int{1, 2, 3, 4}
	tests := []struct {
		o    Outcome
		want string
	}{
		{Outcome{ID: "g1", OK: true, Rounds: []RoundOutcome{{Deltas: [4]int{8000, -8000, 0, 0}}}, FinalScores: &final},
			`{"id":"g1","ok":true,"rounds":[{"deltas":[8000,-8000,0,0]}],"final_scores":[1,2,3,4]}`},
		{Outcome{ID: "g2", Round: &zero, Step: &three, Error: "x"},
			`{"id":"g2","ok":false,"round":0,"step":3,"error":"x"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.o)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(b); got != tt.want {
			t.Errorf("json.Marshal(%+v) = %s, want %s", tt.o, got, tt.want)
		}
	}
}

func TestDecodeError(t *testing.T) {
	if _, err := Decode([]byte("{")); err == nil || !strings.Contains(err.Error(), "decode") {
		t.Errorf("Decode({) error = %v, want a decode error", err)
	}
}

// BenchmarkReplay replays the shared real games (decoded once) and reports
// rounds per second.
func BenchmarkReplay(b *testing.B) {
	games := loadGames(b)
	rounds := 0
	for b.Loop() {
		for _, g := range games {
			o := Play(g)
			rounds += len(o.Rounds)
		}
	}
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/op")
}
