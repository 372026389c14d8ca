package classical

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Play replays g through the engine, as Verify does, and returns its
// outcome in the replay contract's shape (package replay): each hand's
// deltas and the final scores, or where the replay first disagreed with
// the record (the hand, and the index of the action, or the number of
// actions for a result that differs). Hands with a wall seed are dealt
// the wall of the seed, the others their recorded wall (a stacked wall);
// a hand with neither is unreplayable. Play checks no seed or commitment
// (Verify does). It never panics on bad records.
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
	walls := make([]wall.Wall144, len(g.Rounds))
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		switch {
		case rd.WallSeed != "":
			seed, err := hex32(rd.WallSeed)
			if err != nil {
				return fail(i, 0, "wall_seed: %v", err)
			}
			walls[i] = seedWall(g, i, seed)
		case rd.Wall == "":
			return fail(i, 0, "unreplayable: the hand has neither a wall seed nor a wall")
		default:
			if walls[i], err = WallOf(rd.Wall); err != nil {
				return fail(i, 0, "unreplayable: wall: %v", err)
			}
		}
	}
	rec, m := replayHands(g, rules, walls, func(i int, want, got *Round) error {
		if got.Result.Deltas != want.Result.Deltas {
			return fmt.Errorf("deltas %v, the record says %v", got.Result.Deltas, want.Result.Deltas)
		}
		if d := roundDiffs(want, got); len(d) > 0 {
			return fmt.Errorf("%s: %s", d[0].field, d[0].msg)
		}
		out.Rounds = append(out.Rounds, replay.RoundOutcome{Deltas: got.Result.Deltas})
		return nil
	})
	if m != nil {
		return fail(max(m.round, 0), max(m.pos, 0), "%s: %s", m.field, m.msg)
	}
	last, step := 0, 0
	if n := len(g.Rounds); n > 0 {
		last, step = n-1, len(g.Rounds[n-1].Actions)
	}
	switch {
	case g.Partial && rec.Over():
		return fail(last, step, "the game is over after the recorded hands, the record is partial")
	case g.Partial:
	case !rec.Over():
		return fail(last, step, "the game goes on after the recorded hands")
	case g.FinalScores == nil:
		return fail(last, step, "the record has no final scores")
	case *g.FinalScores != *rec.g.FinalScores:
		return fail(last, step, "final scores %v, the record says %v", *rec.g.FinalScores, *g.FinalScores)
	default:
		fs := *rec.g.FinalScores
		out.FinalScores = &fs
	}
	if len(g.Rounds) > 0 && rec.g.StartScores != g.StartScores {
		return fail(0, 0, "start scores %v, the record says %v", rec.g.StartScores, g.StartScores)
	}
	out.OK = true
	return out
}
