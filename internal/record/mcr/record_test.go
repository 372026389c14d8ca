package mcr

import (
	"bytes"
	"encoding/hex"
	"errors"
	"reflect"
	"strings"
	"testing"

	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// playGame plays a game of bots as the server does (walls from the table
// seed, commitments binding the table id) and returns its record and the
// record taken after the first hand.
func playGame(t testing.TB, hands int, server byte) (full, partial *Game) {
	t.Helper()
	rec, partial := playRecorder(t, hands, server)
	full = rec.Game()
	srv := [32]byte{server}
	full.ServerSeed = hex.EncodeToString(srv[:])
	return full, partial
}

// playRecorder is playGame's recorder.
func playRecorder(t testing.TB, hands int, server byte) (rec *Recorder, partial *Game) {
	t.Helper()
	rules := tbl.Rules{Name: "mcr", Hands: hands}
	eng, err := tbl.New(tbl.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	srv := [32]byte{server}
	entropy := [fair.Seats][]byte{{1}, {2}, nil, {4}}
	seed := fair.TableSeed(srv, entropy)
	rec = NewRecorder(rules)
	rec.SetTable("tbl-1")
	rec.SetSeeds(fair.SeedCommitment(srv), entropy)
	var bots [tbl.NumSeats]bmcr.Player
	for n := uint32(0); eng.Phase() != tbl.GameOver; {
		var a tbl.Action
		if eng.Phase() == tbl.BetweenHands {
			if n == 1 {
				partial = rec.Game()
			}
			rs := fair.RoundSeed(seed, n)
			w := wall.New144(rs)
			w.Commitment = fair.Commit(rs, "tbl-1", n)
			a = tbl.Action{Type: tbl.Deal, Wall: &w}
			n++
		} else {
			for s := range tbl.Seat(tbl.NumSeats) {
				var ok bool
				if a, ok = bots[s].Decide(eng, s); ok {
					break
				}
			}
		}
		evs, err := eng.Step(a)
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		rec.Step(a, evs)
	}
	return rec, partial
}

func TestVerify(t *testing.T) {
	g, partial := playGame(t, 4, 9)
	var buf bytes.Buffer
	if err := Write(&buf, g); err != nil {
		t.Fatal(err)
	}
	if !IsMCR(buf.Bytes()) {
		t.Fatal("IsMCR of a record is false")
	}
	var back *Game
	if err := Read(&buf, func(_ int, g *Game) error { back = g; return nil }); err != nil {
		t.Fatal(err)
	}
	rep, err := Verify(back)
	if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed || rep.Verified != 4 {
		t.Fatalf("Verify: %+v, %v", rep, err)
	}
	if !partial.Partial || partial.ServerSeed != "" || partial.Entropy != nil || len(partial.Hands) != 1 {
		t.Fatalf("the record after one hand: %+v", partial)
	}
	if rep, _ := Verify(partial); rep.Err() != nil || !rep.Replayed {
		t.Fatalf("Verify(partial): %+v", rep)
	}
}

// TestVerifyTampered: every change to a record is found.
func TestVerifyTampered(t *testing.T) {
	tamper := []struct {
		name  string
		field string
		f     func(g *Game)
	}{
		{"wall seed", "commitment", func(g *Game) { g.Hands[1].WallSeed = strings.Repeat("ab", 32) }},
		{"commitment", "commitment", func(g *Game) { g.Hands[0].Commitment = strings.Repeat("cd", 32) }},
		{"table id", "commitment", func(g *Game) { g.TableID = "other" }},
		{"server seed", "seed_commitment", func(g *Game) { g.ServerSeed = strings.Repeat("01", 32) }},
		{"entropy", "wall_seed", func(g *Game) { g.Entropy[2] = "ff" }},
		{"an action", "actions", func(g *Game) { g.Hands[0].Actions[len(g.Hands[0].Actions)/2] = "3 discard 1z" }},
		{"one action fewer", "actions", func(g *Game) { a := g.Hands[0].Actions; g.Hands[0].Actions = a[:len(a)-1] }},
		{"scores", "result", func(g *Game) { g.Hands[0].Result.Scores[1] += 8 }},
		{"dealt", "dealt", func(g *Game) { g.Hands[0].Dealt[0] = "123m" }},
		{"flowers", "flowers", func(g *Game) { g.Hands[0].Flowers[3] += "8f" }},
		{"final scores", "final_scores", func(g *Game) { g.FinalScores[0]++ }},
		{"partial with seeds", "server_seed", func(g *Game) { g.Partial = true }},
	}
	for _, tc := range tamper {
		g, _ := playGame(t, 2, 5)
		tc.f(g)
		rep, err := Verify(g)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !errors.Is(rep.Err(), record.ErrTampered) {
			t.Errorf("%s: Verify found nothing: %+v", tc.name, rep)
			continue
		}
		found := false
		for _, p := range rep.Problems {
			found = found || p.Field == tc.field
		}
		if !found {
			t.Errorf("%s: no problem with %s: %v", tc.name, tc.field, rep.Problems)
		}
	}
}

func TestRecorderSnapshot(t *testing.T) {
	rec, _ := playRecorder(t, 2, 3)
	b, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := RestoreRecorder(b)
	if err != nil || back.Hands() != 2 || !back.Over() || !reflect.DeepEqual(back.Game(), rec.Game()) {
		t.Fatalf("RestoreRecorder: %v, %v", back, err)
	}
	if _, err := RestoreRecorder(b[:len(b)-1]); err == nil {
		t.Error("a cut snapshot restores")
	}
}

func TestParseAction(t *testing.T) {
	for _, s := range []string{"2 discard 5m", "1 chi 3s", "0 pass", "3 ron", "1 closed_kan 7z", "0 added_kan 9p", "2 tsumo", "1 pon", "3 open_kan"} {
		a, err := ParseAction(s)
		if err != nil || FormatAction(a) != s {
			t.Errorf("ParseAction(%q) = %v, %v", s, a, err)
		}
	}
	for _, s := range []string{"", "4 pass", "1 discard", "1 discard 1f", "1 discard 0m", "1 pass 1m", "x pass", "1 deal"} {
		if _, err := ParseAction(s); !errors.Is(err, ErrSyntax) {
			t.Errorf("ParseAction(%q) = %v, want ErrSyntax", s, err)
		}
	}
}
