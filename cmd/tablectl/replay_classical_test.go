package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	botc "github.com/mahjong-authority/authority/internal/bot/classical"
	rcl "github.com/mahjong-authority/authority/internal/record/classical"
	"github.com/mahjong-authority/authority/internal/replay"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// classicalRecord plays a classical game of bots in process, on seeded
// walls, and returns its native record.
func classicalRecord(t *testing.T) *rcl.Game {
	t.Helper()
	rules := ct.Default
	rules.Rounds = 1
	tb, err := ct.New(ct.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	rec := rcl.NewRecorder("replay-classical", rules)
	hands := byte(0)
	for steps := 0; tb.Phase() != ct.GameOver; steps++ {
		if steps > 100_000 {
			t.Fatal("the game did not end")
		}
		var a ct.Action
		if tb.Phase() == ct.BetweenHands {
			hands++
			w := wall.New144([32]byte{hands, 42})
			a = ct.Action{Type: ct.Deal, Wall: &w}
		} else {
			for s := range ct.Seat(ct.NumSeats) {
				if tb.Waiting(s) {
					v := tb.View(s)
					a, _ = botc.Efficient{}.Act(&v)
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
	return rec.Game()
}

// TestReplayClassicalCommand runs `tablectl replay --rules classical` on a
// generated record, the same with a changed delta, and a line that is no
// record: one outcome each, in order.
func TestReplayClassicalCommand(t *testing.T) {
	g := classicalRecord(t)
	var in bytes.Buffer
	if err := rcl.Write(&in, g); err != nil {
		t.Fatal(err)
	}
	bad := *g
	bad.ID = "tampered"
	bad.Rounds = append([]rcl.Round(nil), g.Rounds...)
	bad.Rounds[1].Result.Deltas[2] += 2
	if err := rcl.Write(&in, &bad); err != nil {
		t.Fatal(err)
	}
	in.WriteString(`{"id": "junk", "rules": 5}` + "\n")

	var out, errOut bytes.Buffer
	if err := run([]string{"replay", "--rules", "classical"}, &in, &out, &errOut); err != nil {
		t.Fatalf("tablectl replay --rules classical: %v (%s)", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("wrote %d lines, want 3:\n%s", len(lines), out.String())
	}
	var o [3]replay.Outcome
	for i, l := range lines {
		if err := json.Unmarshal([]byte(l), &o[i]); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
	}
	if !o[0].OK || o[0].ID != g.ID || len(o[0].Rounds) != len(g.Rounds) || o[0].FinalScores == nil || *o[0].FinalScores != *g.FinalScores {
		t.Errorf("the record: %s", lines[0])
	}
	for i, r := range o[0].Rounds {
		if r.Deltas != g.Rounds[i].Result.Deltas {
			t.Errorf("hand %d: deltas %v, record %v", i, r.Deltas, g.Rounds[i].Result.Deltas)
		}
	}
	if o[1].OK || o[1].ID != "tampered" || o[1].Round == nil || *o[1].Round != 1 || *o[1].Step != len(g.Rounds[1].Actions) || !strings.Contains(o[1].Error, "deltas") {
		t.Errorf("the tampered record: %s", lines[1])
	}
	if o[2].OK || o[2].ID != "junk" || o[2].Round == nil || *o[2].Round != 0 || o[2].Error == "" {
		t.Errorf("the bad line: %s", lines[2])
	}
	if err := run([]string{"replay", "--rules", "nope"}, strings.NewReader(""), &out, &errOut); err == nil {
		t.Error("replay --rules nope: no usage error")
	}
}
