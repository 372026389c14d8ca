package mcr

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/replay"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Play replays g through the engine, as Verify does, and returns its
// outcome in the replay contract's shape (package replay): each hand's
// deltas and, once the game is over, the final scores; or where the replay
// first disagreed with the record (the hand, and the index of the action,
// or the number of actions for a result that differs). Each hand is dealt
// the wall of its seed: a hand without a wall seed cannot be replayed (the
// record holds no other form of its wall) and fails as unreplayable. It
// never panics on bad records.
func Play(g *Game) replay.Outcome {
	out := replay.Outcome{ID: g.ID}
	fail := func(round, step int, format string, args ...any) replay.Outcome {
		out.OK, out.Rounds, out.FinalScores = false, nil, nil
		out.Round, out.Step, out.Error = &round, &step, fmt.Sprintf(format, args...)
		return out
	}
	if err := checkRules(g); err != nil {
		return fail(0, 0, "rules: %v", err)
	}
	walls := make([]*wall.Wall144, len(g.Hands))
	for i := range g.Hands {
		w, err := seedWall(g, i)
		if err != nil {
			return fail(i, 0, "wall_seed: %v", err)
		}
		walls[i] = w
	}
	t, rec, stop := replayHands(g, walls, func(i int, got *Hand) *replayStop {
		if want := g.Hands[i].Result.Deltas; got.Result.Deltas != want {
			return &replayStop{i, "result", len(g.Hands[i].Actions), fmt.Sprintf("deltas %v, the record says %v", got.Result.Deltas, want)}
		}
		out.Rounds = append(out.Rounds, replay.RoundOutcome{Deltas: got.Result.Deltas})
		return nil
	})
	if stop != nil {
		round, step := max(stop.hand, 0), max(stop.pos, 0)
		return fail(round, step, "%s: %s", stop.field, stop.msg)
	}
	if n := rec.Hands(); n < len(g.Hands) {
		return fail(n, 0, "unreplayable: hand %d has no wall seed, and the record no other form of its wall", n)
	}
	// The end of the game: after the last hand's last action.
	last, step := 0, 0
	if n := len(g.Hands); n > 0 {
		last, step = n-1, len(g.Hands[n-1].Actions)
	}
	if t.Phase() != tbl.GameOver {
		if g.FinalScores != nil {
			return fail(last, step, "final_scores: the game is not over after its %d hands", len(g.Hands))
		}
	} else {
		fs := t.Scores()
		if g.FinalScores != nil && *g.FinalScores != fs {
			return fail(last, step, "final_scores: %v, the record says %v", fs, *g.FinalScores)
		}
		out.FinalScores = &fs
	}
	out.OK = true
	return out
}
