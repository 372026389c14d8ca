package record

import (
	"bytes"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

var update = flag.Bool("update", false, "rewrite testdata/records/seeded-game.jsonl")

const seededFile = "../../testdata/records/seeded-game.jsonl"

// playSeeded plays a whole game as the server deals it: walls from the
// round seeds of a table seed mixed from a server seed and the seats'
// entropy, each with its commitment, two efficient and two random bots,
// every step recorded.
func playSeeded(t testing.TB, server [32]byte, tableID string) *Game {
	t.Helper()
	entropy := [fair.Seats][]byte{[]byte("east's dice"), nil, {0xff, 0}, []byte("north")}
	tableSeed := fair.TableSeed(server, entropy)
	tb, err := table.New(table.Config{Rules: table.TenhouHanchan})
	if err != nil {
		t.Fatal(err)
	}
	rec := NewRecorder(tableID, table.TenhouHanchan, [4]int{})
	rec.SetTable(tableID)
	rec.SetSeeds(fair.SeedCommitment(server), entropy)
	bots := [4]bot.Bot{bot.Efficient{}, bot.NewRandom(1), bot.Efficient{}, bot.NewRandom(2)}
	var v table.View
	deals := uint32(0)
	for steps := 0; tb.Phase() != table.GameOver; steps++ {
		if steps > 100000 {
			t.Fatal("the game does not end")
		}
		var a table.Action
		if tb.Phase() == table.BetweenRounds {
			seed := fair.RoundSeed(tableSeed, deals)
			w := wall.New(seed, true)
			w.Commitment = fair.Commit(seed, tableID, deals)
			deals++
			a = table.Action{Type: table.Deal, Wall: &w}
		} else {
			for s := range table.Seat(table.NumSeats) {
				if tb.Waiting(s) {
					tb.ViewInto(s, &v)
					a, _ = bots[s].Act(&v)
					break
				}
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("step %d: %v", steps, err)
		}
		rec.Step(a, evs)
	}
	g := rec.Game()
	g.ServerSeed = hex.EncodeToString(server[:])
	return g
}

func seededGame(t testing.TB) *Game {
	return playSeeded(t, [32]byte{0, 7, 7}, "table-0001")
}

// TestSeededGolden pins the seeded game: the same seeds and bots make the
// same record (testdata/records/seeded-game.jsonl, which tablectl's tests
// use too; -update rewrites it).
func TestSeededGolden(t *testing.T) {
	g := seededGame(t)
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(seededFile, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(seededFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the seeded game's record differs from %s (run with -update after a deliberate change)", seededFile)
	}
}

func TestVerifyPasses(t *testing.T) {
	g := seededGame(t)
	rep, err := Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Err(); err != nil {
		t.Fatalf("Verify(seeded game).Err() = %v, want nil; problems %v", err, rep.Problems)
	}
	if rep.Verified != len(g.Rounds) || !rep.Chain || !rep.Replayed || len(g.Rounds) < 8 {
		t.Errorf("Verify = %d of %d rounds verified, chain %v, replayed %v", rep.Verified, len(g.Rounds), rep.Chain, rep.Replayed)
	}
	// Read back from JSON the record verifies the same.
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := Verify(back); err != nil || rep.Err() != nil {
		t.Errorf("Verify(decoded) = %v, %v", rep.Err(), err)
	}
}

// TestVerifyNoRoundYet: the export of a game that has finished no round
// (partial, no rounds) verifies, with nothing replayed; a finished game
// without rounds is no game.
func TestVerifyNoRoundYet(t *testing.T) {
	g := seededGame(t)
	g.Rounds, g.FinalScores, g.ServerSeed, g.Partial = nil, nil, "", true
	rep, err := Verify(g)
	if err != nil || rep.Err() != nil || rep.Replayed || rep.Rounds != 0 {
		t.Fatalf("Verify(partial, no rounds) = %+v, %v", rep, err)
	}
	g.Partial = false
	if rep, err := Verify(g); err != nil || !errors.Is(rep.Err(), ErrTampered) {
		t.Fatalf("Verify(finished, no rounds) = %v, %v; want ErrTampered", rep.Err(), err)
	}
}

// firstRoundWith returns the first round whose field s is not empty.
func firstRoundWith(t *testing.T, g *Game, field func(*Round) string) int {
	t.Helper()
	for i := range g.Rounds {
		if field(&g.Rounds[i]) != "" {
			return i
		}
	}
	t.Fatal("no round has the field")
	return -1
}

// changeTile replaces tile n of an ordered tile string by another face.
func changeTile(t *testing.T, s string, n int) string {
	t.Helper()
	ts := tile.MustParse(s)
	k := ts[n].Kind()
	ts[n] = tile.Plain((k + 1) % tile.NumKinds)
	return formatEach(ts)
}

// flipHex changes one hex digit.
func flipHex(s string) string {
	c := "1"
	if s[0] == '1' {
		c = "2"
	}
	return c + s[1:]
}

// TestVerifyTampered changes one thing of a good record at a time; Verify
// must fail and say where.
func TestVerifyTampered(t *testing.T) {
	tests := []struct {
		name   string
		tamper func(t *testing.T, g *Game) (round int)
		field  string
		pos    int
	}{
		{"a draw", func(t *testing.T, g *Game) int {
			g.Rounds[2].Draws = changeTile(t, g.Rounds[2].Draws, 5)
			return 2
		}, "draws", 5},
		{"a dealt tile", func(t *testing.T, g *Game) int {
			h := tile.MustParse(g.Rounds[1].Hands[3])
			h[0] = tile.Plain((h[0].Kind() + 9) % tile.NumKinds)
			g.Rounds[1].Hands[3] = tile.Format(h)
			return 1
		}, "hands", 3},
		{"the dora indicator", func(t *testing.T, g *Game) int {
			g.Rounds[0].DoraIndicators = changeTile(t, g.Rounds[0].DoraIndicators, 0)
			return 0
		}, "dora_indicators", 0},
		{"an ura indicator", func(t *testing.T, g *Game) int {
			i := firstRoundWith(t, g, func(r *Round) string { return r.UraIndicators })
			g.Rounds[i].UraIndicators = changeTile(t, g.Rounds[i].UraIndicators, 0)
			return i
		}, "ura_indicators", 0},
		{"a replacement tile", func(t *testing.T, g *Game) int {
			i := firstRoundWith(t, g, func(r *Round) string { return r.Rinshan })
			g.Rounds[i].Rinshan = changeTile(t, g.Rounds[i].Rinshan, 0)
			return i
		}, "rinshan", 0},
		{"a wall seed", func(t *testing.T, g *Game) int {
			g.Rounds[3].WallSeed = flipHex(g.Rounds[3].WallSeed)
			return 3
		}, "commitment", -1},
		{"a commitment", func(t *testing.T, g *Game) int {
			g.Rounds[4].Commitment = flipHex(g.Rounds[4].Commitment)
			return 4
		}, "commitment", -1},
		{"the table id", func(t *testing.T, g *Game) int {
			g.TableID = "table-0002"
			return 0
		}, "commitment", -1},
		{"a discard", func(t *testing.T, g *Game) int {
			a := &g.Rounds[1].Actions[4]
			if a.Type != "discard" {
				t.Fatalf("round 1 action 4 is %s, want a discard", a.Type)
			}
			a.Tile = changeTile(t, a.Tile, 0)
			return 1
		}, "actions", 4},
		{"a result", func(t *testing.T, g *Game) int {
			g.Rounds[2].Result.Deltas[0] += 100
			g.Rounds[2].Result.Deltas[1] -= 100
			return 2
		}, "result", -1},
		{"the server seed", func(t *testing.T, g *Game) int {
			g.ServerSeed = flipHex(g.ServerSeed)
			return -1
		}, "seed_commitment", -1},
		{"a seat's entropy", func(t *testing.T, g *Game) int {
			g.Entropy[1] = "00"
			return 0
		}, "wall_seed", -1},
	}
	for _, tt := range tests {
		g := seededGame(t)
		round := tt.tamper(t, g)
		rep, err := Verify(g)
		if err != nil {
			t.Fatalf("%s: Verify error %v", tt.name, err)
		}
		if !errors.Is(rep.Err(), ErrTampered) {
			t.Errorf("Verify(%s changed).Err() = %v, want ErrTampered", tt.name, rep.Err())
			continue
		}
		p := rep.Problems[0]
		if p.Round != round || p.Field != tt.field || p.Pos != tt.pos {
			t.Errorf("Verify(%s changed) first problem = %v, want round %d %s[%d]", tt.name, p, round, tt.field, tt.pos)
		}
	}
}

// TestVerifySeedless: a replayed record has no seeds; it is reported as
// unverifiable, not as verified.
func TestVerifySeedless(t *testing.T) {
	c, err := replay.Decode(readLines(t)[0])
	if err != nil {
		t.Fatal(err)
	}
	g, err := Replay(c)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(g)
	if err != nil {
		t.Fatal(err)
	}
	if !errors.Is(rep.Err(), ErrUnverifiable) || len(rep.Problems) != 0 || len(rep.Unverifiable) != len(g.Rounds) || !rep.Replayed {
		t.Errorf("Verify(seedless) = %v, %d problems, %d unverifiable rounds, replayed %v", rep.Err(), len(rep.Problems), len(rep.Unverifiable), rep.Replayed)
	}
	// A seedless record whose actions were changed still fails.
	g.Rounds[0].Actions[0].Tile = changeTile(t, g.Rounds[0].Actions[0].Tile, 0)
	if rep, _ := Verify(g); !errors.Is(rep.Err(), ErrTampered) {
		t.Errorf("Verify(seedless, changed action) = %v, want ErrTampered", rep.Err())
	}
	if !strings.Contains(rep.Err().Error(), "0 of") && !strings.Contains(rep.Err().Error(), "rounds") {
		t.Errorf("unverifiable error %q does not say how many rounds", rep.Err())
	}
}
