package mcr

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record"
	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Verify checks an MCR record and says what it found in a record.Report
// (the same report as riichi's records, so tools print both alike):
//
//   - every hand with a wall seed: its commitment is fair.Commit(seed,
//     table id, hand index) and its wall is wall.New144(seed);
//   - when the record reveals the server seed: its commitment, and that
//     each hand's seed derives from it and the seats' entropy; a partial
//     record that reveals the server seed or the entropy is a problem;
//   - the engine replays every hand on its seed's wall with the record's
//     actions and reaches the record's dealt tiles, flowers, result, fans,
//     payments and scores, and the game's end.
//
// Hands without a seed cannot be replayed (their walls are unknown): they
// and the rest of the game are reported as unverifiable. Verify returns an
// error only for a record it cannot read (bad hex).
func Verify(g *Game) (*record.Report, error) {
	rep := &record.Report{ID: g.ID, Rounds: len(g.Hands)}
	if err := checkRules(g); err != nil {
		add(rep, -1, "rules", -1, "%v", err)
		return rep, nil
	}
	if g.Partial && (g.ServerSeed != "" || len(g.Entropy) != 0) {
		add(rep, -1, "server_seed", -1, "a partial record reveals the server seed or the entropy")
	}
	walls := make([]*wall.Wall144, len(g.Hands))
	for i := range g.Hands {
		h := &g.Hands[i]
		w, err := seedWall(g, i)
		if err != nil {
			return nil, fmt.Errorf("record/mcr: hand %d: wall_seed: %w", i, err)
		}
		if w == nil {
			rep.Unverifiable = append(rep.Unverifiable, i)
			continue
		}
		walls[i] = w
		before := len(rep.Problems)
		switch {
		case g.TableID == "":
			add(rep, i, "commitment", -1, "the record has no table_id, so the commitment cannot be checked")
		case h.Commitment == "":
			add(rep, i, "commitment", -1, "missing: the seats received no commitment to the wall seed")
		case !strings.EqualFold(h.Commitment, hex.EncodeToString(w.Commitment[:])):
			add(rep, i, "commitment", -1, "%.16s... is not SHA-256 of the wall seed, table %q and hand %d", h.Commitment, g.TableID, i)
		}
		if len(rep.Problems) == before {
			rep.Verified++
		}
	}
	checkChain(rep, g)
	replayGame(rep, g, walls)
	return rep, nil
}

// checkRules says why g's rules are not an MCR game's the engine plays.
func checkRules(g *Game) error {
	if g.Rules.Variant != Variant || g.Rules.Hands < 1 || g.Rules.Hands > tbl.MaxHands {
		return fmt.Errorf("variant %q with %d hands is not an MCR game", g.Rules.Variant, g.Rules.Hands)
	}
	return nil
}

// seedWall is hand i's wall, wall.New144 of its seed, with the commitment
// the seats received (fair.Commit of the seed, the table id and the hand
// index); nil for a hand without a seed, whose wall is unknown.
func seedWall(g *Game, i int) (*wall.Wall144, error) {
	if g.Hands[i].WallSeed == "" {
		return nil, nil
	}
	seed, err := hex32(g.Hands[i].WallSeed)
	if err != nil {
		return nil, err
	}
	w := wall.New144(seed)
	w.Commitment = fair.Commit(seed, g.TableID, uint32(i))
	return &w, nil
}

func add(rep *record.Report, hand int, field string, pos int, format string, args ...any) {
	rep.Problems = append(rep.Problems, record.Problem{Round: hand, Field: field, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func hex32(s string) ([32]byte, error) {
	var out [32]byte
	b, err := hex.DecodeString(s)
	if err != nil {
		return out, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if len(b) != 32 {
		return out, fmt.Errorf("%w: %d bytes, want 32", ErrSyntax, len(b))
	}
	copy(out[:], b)
	return out, nil
}

// checkChain checks the table seed's derivation when the server seed is
// revealed.
func checkChain(rep *record.Report, g *Game) {
	if g.ServerSeed == "" {
		rep.ChainMsg = "the record reveals no server seed (a game not over)"
		return
	}
	server, err := hex32(g.ServerSeed)
	if err != nil {
		add(rep, -1, "server_seed", -1, "%v", err)
		return
	}
	if c, err := hex32(g.SeedCommitment); err != nil {
		add(rep, -1, "seed_commitment", -1, "%v", err)
	} else if c != fair.SeedCommitment(server) {
		add(rep, -1, "seed_commitment", -1, "%x is not SHA-256 of the server seed", c[:8])
	}
	var entropy [fair.Seats][]byte
	if len(g.Entropy) != 0 && len(g.Entropy) != fair.Seats {
		add(rep, -1, "entropy", -1, "%d entries, want %d", len(g.Entropy), fair.Seats)
		return
	}
	for s, e := range g.Entropy {
		if entropy[s], err = hex.DecodeString(e); err != nil {
			add(rep, -1, "entropy", s, "%v", err)
			return
		}
	}
	tableSeed := fair.TableSeed(server, entropy)
	before := len(rep.Problems)
	for i := range g.Hands {
		if g.Hands[i].WallSeed == "" {
			continue
		}
		want := fair.RoundSeed(tableSeed, uint32(i))
		if got := g.Hands[i].WallSeed; !strings.EqualFold(got, hex.EncodeToString(want[:])) {
			add(rep, i, "wall_seed", -1, "%.16s... does not derive from the server seed and the entropy (%x...)", got, want[:8])
		}
	}
	rep.Chain = len(rep.Problems) == before
}

// replayGame plays the record's actions on the seeds' walls and compares
// what the engine records with the record.
func replayGame(rep *record.Report, g *Game, walls []*wall.Wall144) {
	t, rec, stop := replayHands(g, walls, func(i int, got *Hand) *replayStop {
		compareHand(rep, i, got, &g.Hands[i])
		return nil
	})
	if stop != nil {
		add(rep, stop.hand, stop.field, stop.pos, "%s", stop.msg)
		return
	}
	if rec.Hands() < len(g.Hands) {
		return // unverifiable from here on: reported already
	}
	over := t.Phase() == tbl.GameOver
	switch {
	case g.Partial && over:
		add(rep, -1, "partial", -1, "the game is over after its %d hands", len(g.Hands))
	case !g.Partial && !over:
		add(rep, -1, "partial", -1, "the game is not over after its %d hands", len(g.Hands))
	case over:
		r := rec.Game()
		if !reflect.DeepEqual(r.FinalScores, g.FinalScores) {
			add(rep, -1, "final_scores", -1, "replay gives %v", *r.FinalScores)
		}
		if !reflect.DeepEqual(r.TablePoints, g.TablePoints) {
			add(rep, -1, "table_points", -1, "replay gives %v", *r.TablePoints)
		}
	}
	if len(rep.Unverifiable) == 0 && len(rep.Problems) == 0 {
		rep.Replayed = true
	}
}

// replayStop is where a replay parted from its record: the hand, the
// record's field at fault, the position in it (an action's index, or the
// number of actions for a hand that does not end with its last one; -1
// for none) and why.
type replayStop struct {
	hand  int
	field string
	pos   int
	msg   string
}

// replayHands plays g's hands through the engine, hand i on walls[i], with
// the record's actions, and a Recorder of what the engine did: the replay
// Verify and Play share. Once a hand ends with its last action, done gets
// the replay's record of it; a stop it returns ends the replay there. The
// replay also stops, with no stop, at the first hand without a wall (nil).
// It returns the table and the recorder as it left them, and the stop
// where the engine and the record parted (the rules must pass checkRules).
func replayHands(g *Game, walls []*wall.Wall144, done func(i int, got *Hand) *replayStop) (*tbl.Table, *Recorder, *replayStop) {
	rules := tbl.Rules{Name: "mcr", Hands: g.Rules.Hands}
	rec := NewRecorder(rules)
	rec.SetTable(g.TableID)
	t, err := tbl.New(tbl.Config{Rules: rules})
	if err != nil {
		return t, rec, &replayStop{-1, "rules", -1, err.Error()}
	}
	for i := range g.Hands {
		h := &g.Hands[i]
		if walls[i] == nil {
			return t, rec, nil
		}
		if t.Phase() != tbl.BetweenHands {
			return t, rec, &replayStop{i, "hands", i, fmt.Sprintf("the game was over after %d hands", i)}
		}
		evs, err := t.Step(tbl.Action{Type: tbl.Deal, Wall: walls[i]})
		if err != nil {
			return t, rec, &replayStop{i, "wall_seed", -1, fmt.Sprintf("the engine refuses the wall: %v", err)}
		}
		rec.Step(tbl.Action{Type: tbl.Deal}, evs)
		for j, s := range h.Actions {
			if rec.Hands() == i+1 {
				return t, rec, &replayStop{i, "actions", j, fmt.Sprintf("the hand ended before action %d of its %d", j, len(h.Actions))}
			}
			a, err := ParseAction(s)
			if err != nil {
				return t, rec, &replayStop{i, "actions", j, err.Error()}
			}
			evs, err := t.Step(a)
			if err != nil {
				return t, rec, &replayStop{i, "actions", j, fmt.Sprintf("the engine refuses %q: %v", s, err)}
			}
			rec.Step(a, evs)
		}
		if rec.Hands() != i+1 {
			return t, rec, &replayStop{i, "actions", len(h.Actions), fmt.Sprintf("the hand does not end after its %d actions", len(h.Actions))}
		}
		got, err := rec.st.Game.Hands.Last()
		if err != nil {
			return t, rec, &replayStop{i, "actions", len(h.Actions), fmt.Sprintf("the replay's record: %v", err)}
		}
		if stop := done(i, &got); stop != nil {
			return t, rec, stop
		}
	}
	return t, rec, nil
}

func compareHand(rep *record.Report, i int, got, want *Hand) {
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"index", got.Index, want.Index},
		{"round", got.Round, want.Round},
		{"dealer", got.Dealer, want.Dealer},
		{"winds", got.Winds, want.Winds},
		{"commitment", strings.ToLower(got.Commitment), strings.ToLower(want.Commitment)},
		{"wall_seed", strings.ToLower(got.WallSeed), strings.ToLower(want.WallSeed)},
		{"dealt", got.Dealt, want.Dealt},
		{"flowers", got.Flowers, want.Flowers},
		{"result", got.Result, want.Result},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			add(rep, i, f.name, -1, "replay gives %v, the record %v", show(f.got), show(f.want))
		}
	}
}

// show prints pointers' values.
func show(v any) string {
	if r, ok := v.(Result); ok {
		b := fmt.Sprintf("%s deltas=%v scores=%v total=%d fans=%v", r.Kind, r.Deltas, r.Scores, r.Total, r.Fans)
		if r.Winner != nil {
			b += fmt.Sprintf(" winner=%d", *r.Winner)
		}
		return b
	}
	return fmt.Sprint(v)
}
