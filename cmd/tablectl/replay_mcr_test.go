package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	bmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/fair"
	rmcr "github.com/mahjong-authority/authority/internal/record/mcr"
	"github.com/mahjong-authority/authority/internal/replay"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// mcrBotRecord plays a game of bots on the engine as a table does (walls
// from the table seed, commitments binding the table id) and returns its
// native record.
func mcrBotRecord(t *testing.T, id string, hands int, server byte) *rmcr.Game {
	t.Helper()
	rules := tmcr.Rules{Name: "mcr", Hands: hands}
	eng, err := tmcr.New(tmcr.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	srv := [32]byte{server}
	var entropy [fair.Seats][]byte
	seed := fair.TableSeed(srv, entropy)
	rec := rmcr.NewRecorder(rules)
	rec.SetTable(id)
	rec.SetSeeds(fair.SeedCommitment(srv), entropy)
	var bots [tmcr.NumSeats]bmcr.Player
	for n := uint32(0); eng.Phase() != tmcr.GameOver; {
		var a tmcr.Action
		if eng.Phase() == tmcr.BetweenHands {
			rs := fair.RoundSeed(seed, n)
			w := wall.New144(rs)
			w.Commitment = fair.Commit(rs, id, n)
			a = tmcr.Action{Type: tmcr.Deal, Wall: &w}
			n++
		} else {
			for s := range tmcr.Seat(tmcr.NumSeats) {
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
	g := rec.Game()
	g.ServerSeed = hex.EncodeToString(srv[:])
	return g
}

// TestReplayMCR: `tablectl replay --rules mcr` answers one outcome per MCR
// record, in order: ok with every hand's deltas and the final scores for a
// bot game, the hand and step for one with a changed action, and a
// malformed line by its id.
func TestReplayMCR(t *testing.T) {
	good := mcrBotRecord(t, "mcr-a", 2, 1)
	bad := mcrBotRecord(t, "mcr-b", 2, 2)
	bad.Hands[1].Actions[2] = "0 discard 1z"
	var in bytes.Buffer
	for _, g := range []*rmcr.Game{good, bad} {
		if err := rmcr.Write(&in, g); err != nil {
			t.Fatal(err)
		}
	}
	in.WriteString(`{"id":"mcr-c","rules":{"variant":"riichi"}}` + "\n")
	var out, errOut bytes.Buffer
	if err := run([]string{"replay", "--rules", "mcr"}, &in, &out, &errOut); err != nil {
		t.Fatalf("tablectl replay --rules mcr: %v (stderr %q)", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d outcomes for 3 games:\n%s", len(lines), out.String())
	}
	var outs [3]replay.Outcome
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &outs[i]); err != nil {
			t.Fatalf("line %d: %v: %s", i+1, err, l)
		}
	}
	if o := outs[0]; o.ID != "mcr-a" || !o.OK || len(o.Rounds) != 2 || o.FinalScores == nil || *o.FinalScores != *good.FinalScores ||
		o.Rounds[0].Deltas != good.Hands[0].Result.Deltas || o.Rounds[1].Deltas != good.Hands[1].Result.Deltas {
		t.Errorf("the bot game: %s", lines[0])
	}
	if o := outs[1]; o.ID != "mcr-b" || o.OK || o.Round == nil || *o.Round != 1 || o.Step == nil || *o.Step != 2 || !strings.Contains(o.Error, "actions") {
		t.Errorf("the changed game: %s", lines[1])
	}
	if o := outs[2]; o.ID != "mcr-c" || o.OK || !strings.Contains(o.Error, "variant") {
		t.Errorf("the riichi line: %s", lines[2])
	}
}
