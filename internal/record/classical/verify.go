package classical

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Verify checks a classical record as package record's Verify checks a
// riichi one, and reports in the same Report:
//
//   - every hand that has a wall seed: its commitment is
//     fair.Commit(seed, table id, hand index), and its recorded wall is
//     wall.New144's of the seed;
//   - when the record reveals the server seed: its commitment, and that
//     each hand's seed derives from it and the seats' entropy;
//   - the engine replays the record on its walls and a Recorder of the
//     replay makes the same record, hand by hand.
//
// Verify returns an error only for a record it cannot read (bad hex).
func Verify(g *Game) (*record.Report, error) {
	rep := &record.Report{ID: g.ID, Rounds: len(g.Rounds)}
	rules, err := g.Rules.Engine()
	if err != nil {
		add(rep, -1, "rules", -1, "%v", err)
		return rep, nil
	}
	walls := make([]wall.Wall144, len(g.Rounds))
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		w, err := WallOf(rd.Wall)
		if err != nil {
			add(rep, i, "wall", -1, "%v", err)
			return rep, nil
		}
		if rd.WallSeed == "" {
			rep.Unverifiable = append(rep.Unverifiable, i)
			walls[i] = w
			continue
		}
		seed, err := hex32(rd.WallSeed)
		if err != nil {
			return nil, fmt.Errorf("record: round %d: wall_seed: %w", i, err)
		}
		sw := seedWall(g, i, seed)
		walls[i] = sw
		before := len(rep.Problems)
		if rd.Commitment == "" {
			add(rep, i, "commitment", -1, "missing")
		} else if !strings.EqualFold(rd.Commitment, hex.EncodeToString(sw.Commitment[:])) {
			add(rep, i, "commitment", -1, "%.16s... is not the commitment to the wall seed for table %q, hand %d", rd.Commitment, g.TableID, i)
		}
		for p := range w.Tiles {
			if w.Tiles[p] != sw.Tiles[p] {
				add(rep, i, "wall", p, "%v, but the wall of the seed has %v", w.Tiles[p], sw.Tiles[p])
				break
			}
		}
		if len(rep.Problems) == before {
			rep.Verified++
		}
	}
	checkChain(rep, g)
	if len(g.Rounds) == 0 && g.Partial {
		return rep, nil
	}
	replayed(rep, g, rules, walls)
	return rep, nil
}

// seedWall is hand i's wall of its seed, with the commitment its seats
// received.
func seedWall(g *Game, i int, seed [32]byte) wall.Wall144 {
	w := wall.New144(seed)
	w.Commitment = fair.Commit(seed, g.TableID, uint32(i))
	return w
}

func add(rep *record.Report, round int, field string, pos int, format string, args ...any) {
	rep.Problems = append(rep.Problems, record.Problem{Round: round, Field: field, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

func hex32(s string) ([32]byte, error) {
	var out [32]byte
	b, err := hex.DecodeString(s)
	if err != nil {
		return out, fmt.Errorf("%w: %v", record.ErrSyntax, err)
	}
	if len(b) != 32 {
		return out, fmt.Errorf("%w: %d bytes, want 32", record.ErrSyntax, len(b))
	}
	copy(out[:], b)
	return out, nil
}

// checkChain checks the server seed against its commitment and every
// hand's seed against the derivation from it and the entropy.
func checkChain(rep *record.Report, g *Game) {
	if g.ServerSeed == "" {
		rep.ChainMsg = "the record reveals no server seed (a replay, or a game not over)"
		return
	}
	server, err := hex32(g.ServerSeed)
	if err != nil {
		add(rep, -1, "server_seed", -1, "%v", err)
		return
	}
	if g.SeedCommitment == "" {
		add(rep, -1, "seed_commitment", -1, "missing: nothing shows the server seed was fixed before the players' entropy")
	} else if c, err := hex32(g.SeedCommitment); err != nil {
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
	for i := range g.Rounds {
		if g.Rounds[i].WallSeed == "" {
			continue
		}
		want := fair.RoundSeed(tableSeed, uint32(i))
		if got := g.Rounds[i].WallSeed; !strings.EqualFold(got, hex.EncodeToString(want[:])) {
			add(rep, i, "wall_seed", -1, "%.16s... does not derive from the server seed and the entropy (%x...)", got, want[:8])
		}
	}
	rep.Chain = len(rep.Problems) == before
}

// replayed replays the record through the engine, recording the replay,
// and compares the two records hand by hand.
func replayed(rep *record.Report, g *Game, rules ct.Rules, walls []wall.Wall144) {
	before := len(rep.Problems)
	rec, m := replayHands(g, rules, walls, func(i int, want, got *Round) error {
		if want.WallSeed == "" {
			got.WallSeed, got.Commitment = "", ""
		}
		if want.Commitment == "" {
			got.Commitment = ""
		}
		for _, d := range roundDiffs(want, got) {
			add(rep, i, d.field, -1, "%s", d.msg)
		}
		return nil
	})
	if m != nil {
		add(rep, m.round, m.field, m.pos, "%s", m.msg)
		return
	}
	switch {
	case g.Partial && rec.Over():
		add(rep, -1, "partial", -1, "the game is over after the recorded hands")
	case !g.Partial && !rec.Over():
		add(rep, -1, "partial", -1, "the game goes on after the recorded hands")
	case !g.Partial && g.FinalScores == nil:
		add(rep, -1, "final_scores", -1, "missing")
	case !g.Partial && *g.FinalScores != *rec.g.FinalScores:
		add(rep, -1, "final_scores", -1, "%v, but the replay ends %v", *g.FinalScores, *rec.g.FinalScores)
	}
	if rec.g.StartScores != g.StartScores {
		add(rep, -1, "start_scores", -1, "%v, but the replay starts %v", g.StartScores, rec.g.StartScores)
	}
	rep.Replayed = len(rep.Problems) == before
}

// mismatch is where a replay stopped: the hand (-1 for the game), the
// record's field and the position in it (the action's index, -1 for
// none).
type mismatch struct {
	round int
	field string
	pos   int
	msg   string
}

// replayHands deals every hand of g its wall in walls and feeds the
// engine the hand's recorded actions, recording the replay; after each
// hand it calls hand with the recorded hand and the replay's (a copy),
// stopping at its error. It returns the replay's recorder and, when the
// replay stopped before the end of the record, where and why. Verify and
// Play share it.
func replayHands(g *Game, rules ct.Rules, walls []wall.Wall144, hand func(i int, want, got *Round) error) (*Recorder, *mismatch) {
	t, err := ct.New(ct.Config{Rules: rules})
	if err != nil {
		return nil, &mismatch{-1, "rules", -1, err.Error()}
	}
	rec := NewRecorder(g.ID, rules)
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		w := walls[i]
		if t.Phase() != ct.BetweenHands {
			return rec, &mismatch{i, "rounds", -1, fmt.Sprintf("the engine is %v, not between hands", t.Phase())}
		}
		a := ct.Action{Type: ct.Deal, Wall: &w}
		evs, err := t.Step(a)
		if err != nil {
			return rec, &mismatch{i, "wall", -1, fmt.Sprintf("the engine refused the deal: %v", err)}
		}
		rec.Step(a, evs)
		for j, ra := range rd.Actions {
			if rec.Rounds() == i+1 {
				return rec, &mismatch{i, "actions", j, "the hand ended before this action"}
			}
			a, err := ra.Engine()
			if err != nil {
				return rec, &mismatch{i, "actions", j, err.Error()}
			}
			evs, err := t.Step(a)
			if err != nil {
				return rec, &mismatch{i, "actions", j, fmt.Sprintf("the engine refused it: %v", err)}
			}
			rec.Step(a, evs)
		}
		if rec.Rounds() != i+1 {
			return rec, &mismatch{i, "actions", len(rd.Actions), "the hand does not end with its last action"}
		}
		got, err := rec.done.Last()
		if err != nil {
			return rec, &mismatch{i, "result", len(rd.Actions), fmt.Sprintf("the replay's record: %v", err)}
		}
		if err := hand(i, rd, &got); err != nil {
			return rec, &mismatch{i, "result", len(rd.Actions), err.Error()}
		}
	}
	return rec, nil
}

// diff is one field in which a recorded hand and its replay differ.
type diff struct{ field, msg string }

// roundDiffs compares a recorded hand with its replay, field by field.
func roundDiffs(want, got *Round) []diff {
	var out []diff
	eq := func(field string, a, b any) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			out = append(out, diff{field, fmt.Sprintf("%s, but the replay makes %s", ja, jb)})
		}
	}
	eq("dealer", want.Dealer, got.Dealer)
	eq("round", want.Round, got.Round)
	eq("scores", want.Scores, got.Scores)
	eq("result", want.Result, got.Result)
	return out
}
