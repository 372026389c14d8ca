package sichuan

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/replay"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// Play replays g through the engine and returns its outcome in the replay
// contract's shape (package replay): each hand's deltas and the final
// scores, or where the replay first disagreed with the record (the hand,
// and the index of the action, or the number of actions for a result that
// differs). Hands with a wall seed are dealt the wall of the seed, the
// others a wall stacked from their recorded tiles. It never panics on bad
// records.
func Play(g *Game) replay.Outcome {
	out := replay.Outcome{ID: g.ID}
	fail := func(round, step int, format string, args ...any) replay.Outcome {
		out.OK, out.Rounds, out.FinalScores = false, nil, nil
		out.Round, out.Step, out.Error = &round, &step, fmt.Sprintf(format, args...)
		return out
	}
	rules, err := g.Rules.Engine()
	if err != nil {
		return fail(0, 0, "%v", err)
	}
	t, err := sc.New(sc.Config{Rules: rules})
	if err != nil {
		return fail(0, 0, "%v", err)
	}
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		var w sc.Wall
		if rd.WallSeed != "" {
			seed, err := hex32(rd.WallSeed)
			if err != nil {
				return fail(i, 0, "wall_seed: %v", err)
			}
			w = sc.NewWall(seed)
		} else if w, err = stacked(rd); err != nil {
			return fail(i, 0, "%v", err)
		}
		if _, err := t.Step(sc.Action{Type: sc.Deal, Wall: &w}); err != nil {
			return fail(i, 0, "deal: %v", err)
		}
		var end *sc.HandEnded
		for j, ra := range rd.Actions {
			a, err := ra.Engine()
			if err != nil {
				return fail(i, j, "%v", err)
			}
			evs, err := t.Step(a)
			if err != nil {
				return fail(i, j, "the engine refused %v: %v", a, err)
			}
			for _, e := range evs {
				if h, ok := e.Body.(sc.HandEnded); ok {
					end = &h
				}
			}
			if end != nil && j != len(rd.Actions)-1 {
				return fail(i, j+1, "the hand ended before its last action")
			}
		}
		switch {
		case end == nil:
			return fail(i, len(rd.Actions), "the hand does not end with its last action")
		case end.Deltas != rd.Result.Deltas:
			return fail(i, len(rd.Actions), "deltas %v, the record says %v", end.Deltas, rd.Result.Deltas)
		}
		out.Rounds = append(out.Rounds, replay.RoundOutcome{Deltas: end.Deltas})
	}
	if t.Phase() == sc.MatchOver {
		fs := t.Scores()
		if g.FinalScores != nil && *g.FinalScores != fs {
			return fail(len(g.Rounds)-1, len(g.Rounds[len(g.Rounds)-1].Actions), "final scores %v, the record says %v", fs, *g.FinalScores)
		}
		out.FinalScores = &fs
	}
	out.OK = true
	return out
}
