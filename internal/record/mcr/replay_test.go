package mcr

import (
	"strings"
	"testing"
)

// TestPlay: a recorded bot game replays ok with its hands' deltas and the
// final scores, and so does the record after its first hand (no final
// scores yet).
func TestPlay(t *testing.T) {
	g, partial := playGame(t, 4, 9)
	o := Play(g)
	if !o.OK || o.ID != g.ID || o.Round != nil || o.Step != nil || o.Error != "" {
		t.Fatalf("Play: %+v", o)
	}
	if len(o.Rounds) != len(g.Hands) {
		t.Fatalf("Play: %d rounds for %d hands", len(o.Rounds), len(g.Hands))
	}
	for i, r := range o.Rounds {
		if r.Deltas != g.Hands[i].Result.Deltas {
			t.Errorf("hand %d: deltas %v, the record %v", i, r.Deltas, g.Hands[i].Result.Deltas)
		}
	}
	if o.FinalScores == nil || *o.FinalScores != *g.FinalScores {
		t.Errorf("final scores %v, the record %v", o.FinalScores, *g.FinalScores)
	}
	if o := Play(partial); !o.OK || len(o.Rounds) != 1 || o.FinalScores != nil {
		t.Errorf("Play(partial): %+v", o)
	}
}

// TestPlayTampered: a changed record fails at the hand and step where the
// replay first parts from it.
func TestPlayTampered(t *testing.T) {
	tamper := []struct {
		name        string
		f           func(g *Game) (round, step int)
		errContains string
	}{
		{"an action", func(g *Game) (int, int) {
			a := g.Hands[1].Actions
			j := len(a) / 2
			if a[j] == "3 discard 1z" {
				j++
			}
			a[j] = "3 discard 1z"
			return 1, j
		}, "actions"},
		{"a delta", func(g *Game) (int, int) {
			g.Hands[2].Result.Deltas[0]++
			return 2, len(g.Hands[2].Actions)
		}, "deltas"},
		{"one action fewer", func(g *Game) (int, int) {
			a := g.Hands[0].Actions
			g.Hands[0].Actions = a[:len(a)-1]
			return 0, len(a) - 1
		}, "does not end"},
		{"one action more", func(g *Game) (int, int) {
			n := len(g.Hands[0].Actions)
			g.Hands[0].Actions = append(g.Hands[0].Actions, "0 pass")
			return 0, n
		}, "ended before"},
		{"a bad action", func(g *Game) (int, int) {
			g.Hands[1].Actions[3] = "9 discard"
			return 1, 3
		}, "malformed"},
		{"final scores", func(g *Game) (int, int) {
			g.FinalScores[3]--
			return 3, len(g.Hands[3].Actions)
		}, "final_scores"},
		{"no wall seed", func(g *Game) (int, int) {
			g.Hands[2].WallSeed = ""
			return 2, 0
		}, "unreplayable"},
		{"bad wall seed", func(g *Game) (int, int) {
			g.Hands[1].WallSeed = "zz"
			return 1, 0
		}, "wall_seed"},
		{"rules", func(g *Game) (int, int) {
			g.Rules.Hands = 0
			return 0, 0
		}, "rules"},
	}
	for _, tc := range tamper {
		g, _ := playGame(t, 4, 9)
		round, step := tc.f(g)
		o := Play(g)
		if o.OK || o.Round == nil || o.Step == nil || o.Rounds != nil || o.FinalScores != nil {
			t.Errorf("%s: Play: %+v", tc.name, o)
			continue
		}
		if *o.Round != round || *o.Step != step || !strings.Contains(o.Error, tc.errContains) {
			t.Errorf("%s: round %d step %d %q; want round %d step %d, an error with %q", tc.name, *o.Round, *o.Step, o.Error, round, step, tc.errContains)
		}
	}
}
