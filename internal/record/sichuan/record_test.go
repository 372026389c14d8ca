package sichuan_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// play plays a match of bots on fair walls, as the host deals them, and
// returns its recorder after stop hands (all of them when stop is 0).
func play(t testing.TB, rules sc.Rules, stop int) (*rsc.Recorder, [32]byte) {
	t.Helper()
	server := [32]byte{7, 7, 7}
	entropy := [4][]byte{[]byte("a"), nil, []byte("ccc"), []byte("dd")}
	seed := fair.TableSeed(server, entropy)
	rec := rsc.NewRecorder("", rules)
	rec.SetTable("t-1")
	rec.SetSeeds(fair.SeedCommitment(server), entropy)
	tb, err := sc.New(sc.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var bot botsc.Efficient
	hands := uint32(0)
	for tb.Phase() != sc.MatchOver {
		var a sc.Action
		if tb.Phase() == sc.BetweenHands {
			if stop > 0 && int(hands) == stop {
				break
			}
			rs := fair.RoundSeed(seed, hands)
			w := sc.NewWall(rs)
			w.Commitment = fair.Commit(rs, "t-1", hands)
			hands++
			a = sc.Action{Type: sc.Deal, Wall: &w}
		} else {
			for s := range sc.Seat(sc.NumSeats) {
				if v := tb.View(s); len(v.Legal) > 0 {
					a, _ = bot.Act(&v)
					break
				}
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		rec.Step(a, evs)
	}
	if err := rec.Err(); err != nil {
		t.Fatal(err)
	}
	return rec, server
}

func finished(t *testing.T, rules sc.Rules) *rsc.Game {
	rec, server := play(t, rules, 0)
	g := rec.Game()
	g.ServerSeed = hex.EncodeToString(server[:])
	return g
}

// TestVerify: the record of a whole match verifies in full (walls,
// commitments, the derivation chain, the replay), through a write and a
// read, under each preset.
func TestVerify(t *testing.T) {
	short := sc.Default
	short.Hands = 3
	river := sc.BloodyRiver
	river.Hands = 2
	off := short
	off.Exchange, off.VoidFirst, off.PassLock = false, false, false
	for _, rules := range []sc.Rules{short, river, off} {
		g := finished(t, rules)
		var buf bytes.Buffer
		if err := rsc.Write(&buf, g); err != nil {
			t.Fatal(err)
		}
		if !rsc.IsSichuan(buf.Bytes()) {
			t.Fatalf("IsSichuan(%.80s...) = false", buf.String())
		}
		back, err := rsc.Decode(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		rep, err := rsc.Verify(back)
		if err != nil || rep.Err() != nil || !rep.Chain || !rep.Replayed || rep.Verified != rules.Hands {
			t.Fatalf("%+v: Verify = %+v, %v (%v)", rules, rep, err, rep.Err())
		}
	}
}

// TestVerifyTampered: every kind of change is found.
func TestVerifyTampered(t *testing.T) {
	rules := sc.Default
	rules.Hands = 2
	for _, tc := range []struct {
		name  string
		field string
		edit  func(g *rsc.Game)
	}{
		{"a dealt tile", "hands", func(g *rsc.Game) {
			h := g.Rounds[0].Hands[1]
			g.Rounds[0].Hands[1] = swapFirst(h)
		}},
		{"a draw", "draws", func(g *rsc.Game) { g.Rounds[1].Draws = swapFirst(g.Rounds[1].Draws) }},
		{"the direction", "direction", func(g *rsc.Game) {
			if g.Rounds[0].Direction == "across" {
				g.Rounds[0].Direction = "to_next"
			} else {
				g.Rounds[0].Direction = "across"
			}
		}},
		{"a delta", "result", func(g *rsc.Game) { g.Rounds[0].Result.Deltas[0]++ }},
		{"the commitment", "commitment", func(g *rsc.Game) { g.Rounds[1].Commitment = strings.Repeat("00", 32) }},
		{"the server seed", "seed_commitment", func(g *rsc.Game) { g.ServerSeed = strings.Repeat("11", 32) }},
		{"the entropy", "wall_seed", func(g *rsc.Game) { g.Entropy[1] = "ff" }},
		{"an action", "actions", func(g *rsc.Game) { g.Rounds[0].Actions = g.Rounds[0].Actions[:len(g.Rounds[0].Actions)-1] }},
		{"the final scores", "final_scores", func(g *rsc.Game) { g.FinalScores[2] += 4 }},
	} {
		g := finished(t, rules)
		tc.edit(g)
		rep, err := rsc.Verify(g)
		if err != nil {
			t.Fatal(err)
		}
		if !errors.Is(rep.Err(), record.ErrTampered) {
			t.Errorf("%s: Verify found nothing", tc.name)
			continue
		}
		found := false
		for _, p := range rep.Problems {
			found = found || p.Field == tc.field
		}
		if !found {
			t.Errorf("%s: problems %v, none about %s", tc.name, rep.Problems, tc.field)
		}
	}
}

// swapFirst moves a record's first tile to the end ("1m2m3p" ->
// "2m3p1m"), or changes a lone tile.
func swapFirst(s string) string {
	if len(s) <= 2 {
		if s == "1m" {
			return "2m"
		}
		return "1m"
	}
	for i := 2; i < len(s); i += 2 {
		if s[i:i+2] != s[:2] {
			return s[i:i+2] + s[2:i] + s[:2] + s[i+2:]
		}
	}
	return s
}

// TestPartial: a match in progress is recorded up to its last finished
// hand, without entropy or final scores, and still verifies its walls and
// replay; a recorder restored from its snapshot between hands goes on to
// the same record.
func TestPartial(t *testing.T) {
	rules := sc.Default
	rules.Hands = 3
	rec, _ := play(t, rules, 2)
	g := rec.Game()
	if !g.Partial || len(g.Rounds) != 2 || g.Entropy != nil || g.ServerSeed != "" || g.FinalScores != nil {
		t.Fatalf("partial record: partial %t, %d hands, entropy %v, server seed %q, final %v", g.Partial, len(g.Rounds), g.Entropy, g.ServerSeed, g.FinalScores)
	}
	var buf bytes.Buffer
	rsc.Write(&buf, g)
	if strings.Contains(buf.String(), "entropy") || strings.Contains(buf.String(), "server_seed") {
		t.Errorf("partial record carries secrets: %s", buf.String())
	}
	rep, err := rsc.Verify(g)
	if err != nil || rep.Err() != nil || rep.Verified != 2 || !rep.Replayed || rep.Chain {
		t.Fatalf("Verify(partial) = %+v, %v", rep, err)
	}
	b, err := rec.AppendBinary(nil)
	if err != nil {
		t.Fatal(err)
	}
	back, err := rsc.RestoreRecorder(b)
	if err != nil {
		t.Fatal(err)
	}
	var w1, w2 bytes.Buffer
	rsc.Write(&w1, rec.Game())
	rsc.Write(&w2, back.Game())
	if w1.String() != w2.String() {
		t.Errorf("restored recorder records\n%s\nnot\n%s", w2.String(), w1.String())
	}
}

// TestStacked: a record without seeds replays on walls stacked from its
// tiles and is reported unverifiable, not tampered.
func TestStacked(t *testing.T) {
	rules := sc.Default
	rules.Hands = 2
	g := finished(t, rules)
	g.ServerSeed, g.SeedCommitment, g.Entropy = "", "", nil
	for i := range g.Rounds {
		g.Rounds[i].WallSeed, g.Rounds[i].Commitment = "", ""
	}
	rep, err := rsc.Verify(g)
	if err != nil || !errors.Is(rep.Err(), record.ErrUnverifiable) || !rep.Replayed {
		t.Fatalf("Verify(stacked) = %+v, %v, %v", rep, err, rep.Err())
	}
}

// TestPlay: a match's record replays to its deltas and final scores; a
// changed action is reported at its hand and step.
func TestPlay(t *testing.T) {
	rules := sc.Default
	rules.Hands = 2
	g := finished(t, rules)
	o := rsc.Play(g)
	if !o.OK || len(o.Rounds) != 2 || o.FinalScores == nil || *o.FinalScores != *g.FinalScores {
		t.Fatalf("Play = %+v", o)
	}
	for i := range g.Rounds {
		if o.Rounds[i].Deltas != g.Rounds[i].Result.Deltas {
			t.Errorf("hand %d: deltas %v, want %v", i, o.Rounds[i].Deltas, g.Rounds[i].Result.Deltas)
		}
	}
	g.Rounds[1].Actions[5] = rsc.Action{Seat: 0, Type: "void", Suit: "z"}
	if o := rsc.Play(g); o.OK || *o.Round != 1 || *o.Step != 5 {
		t.Errorf("Play of a bad action = %+v", o)
	}
}
