package classical

import (
	"bytes"
	"strings"
	"testing"

	ct "github.com/mahjong-authority/authority/internal/table/classical"
)

// TestPlay replays a recorded bot game: ok, with the record's deltas and
// final scores; on stacked walls too; and a tampered record is answered
// with the hand and the step where the replay parts from it.
func TestPlay(t *testing.T) {
	rules := ct.Default
	rules.Rounds = 1
	rec, partial := botGame(t, [32]byte{7, 7}, rules)
	g := rec.Game()
	fresh := func() *Game {
		x, err := Decode(bytes.TrimSpace(mustWrite(t, g)))
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	o := Play(fresh())
	if !o.OK || o.ID != g.ID || len(o.Rounds) != len(g.Rounds) || o.FinalScores == nil || *o.FinalScores != *g.FinalScores || o.Error != "" {
		t.Fatalf("Play = %+v", o)
	}
	sum := g.StartScores
	for i, r := range o.Rounds {
		if r.Deltas != g.Rounds[i].Result.Deltas {
			t.Errorf("hand %d: deltas %v, record %v", i, r.Deltas, g.Rounds[i].Result.Deltas)
		}
		for s := range sum {
			sum[s] += r.Deltas[s]
		}
	}
	if sum != *o.FinalScores {
		t.Errorf("start scores and deltas make %v, final scores %v", sum, *o.FinalScores)
	}

	// Stacked walls: no seeds, the recorded walls.
	x := fresh()
	for i := range x.Rounds {
		x.Rounds[i].WallSeed, x.Rounds[i].Commitment = "", ""
	}
	if o := Play(x); !o.OK || len(o.Rounds) != len(g.Rounds) {
		t.Errorf("Play on stacked walls = %+v", o)
	}
	// A hand with neither a seed nor a wall is unreplayable.
	x.Rounds[1].Wall = ""
	if o := Play(x); o.OK || o.Round == nil || *o.Round != 1 || *o.Step != 0 || !strings.Contains(o.Error, "unreplayable") {
		t.Errorf("Play without a wall = %+v", o)
	}
	// A partial record: its hands, no final scores.
	p, err := Decode(bytes.TrimSpace(partial[0]))
	if err != nil {
		t.Fatal(err)
	}
	if o := Play(p); !o.OK || len(o.Rounds) != len(p.Rounds) || o.FinalScores != nil {
		t.Errorf("Play on a partial record = %+v", o)
	}

	// An action changed: the first discard of hand 1 made by another seat.
	x = fresh()
	step := -1
	for j, a := range x.Rounds[1].Actions {
		if a.Type == "discard" {
			step = j
			x.Rounds[1].Actions[j].Seat = (a.Seat + 1) % 4
			break
		}
	}
	if o := Play(x); o.OK || o.Round == nil || *o.Round != 1 || *o.Step != step || !strings.Contains(o.Error, "refused") {
		t.Errorf("Play with a changed action (hand 1, step %d) = %+v", step, o)
	}
	// A delta changed: after the hand's last action.
	x = fresh()
	x.Rounds[2].Result.Deltas[0]++
	if o := Play(x); o.OK || o.Round == nil || *o.Round != 2 || *o.Step != len(x.Rounds[2].Actions) || !strings.Contains(o.Error, "deltas") {
		t.Errorf("Play with a changed delta = %+v", o)
	}
	// Final scores changed: after the last hand.
	x = fresh()
	(*x.FinalScores)[0]++
	last := len(x.Rounds) - 1
	if o := Play(x); o.OK || *o.Round != last || *o.Step != len(x.Rounds[last].Actions) || !strings.Contains(o.Error, "final scores") {
		t.Errorf("Play with changed final scores = %+v", o)
	}
	// A record that stops early but says it is whole.
	x = fresh()
	x.Rounds = x.Rounds[:last]
	if o := Play(x); o.OK || !strings.Contains(o.Error, "goes on") {
		t.Errorf("Play on a cut record = %+v", o)
	}
	// Bad rules.
	x = fresh()
	x.Rules.Variant = "riichi"
	if o := Play(x); o.OK || *o.Round != 0 || *o.Step != 0 {
		t.Errorf("Play with riichi rules = %+v", o)
	}
}
