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
		sw := wall.New144(seed)
		sw.Commitment = fair.Commit(seed, g.TableID, uint32(i))
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
	t, err := ct.New(ct.Config{Rules: rules})
	if err != nil {
		add(rep, -1, "rules", -1, "%v", err)
		return
	}
	rec := NewRecorder(g.ID, rules)
	before := len(rep.Problems)
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		w := walls[i]
		if t.Phase() != ct.BetweenHands {
			add(rep, i, "rounds", -1, "the engine is %v, not between hands", t.Phase())
			return
		}
		a := ct.Action{Type: ct.Deal, Wall: &w}
		evs, err := t.Step(a)
		if err != nil {
			add(rep, i, "wall", -1, "the engine refused the deal: %v", err)
			return
		}
		rec.Step(a, evs)
		for j, ra := range rd.Actions {
			a, err := ra.Engine()
			if err != nil {
				add(rep, i, "actions", j, "%v", err)
				return
			}
			evs, err := t.Step(a)
			if err != nil {
				add(rep, i, "actions", j, "the engine refused it: %v", err)
				return
			}
			rec.Step(a, evs)
		}
		if rec.Rounds() != i+1 {
			add(rep, i, "actions", len(rd.Actions), "the hand does not end with its last action")
			return
		}
		got := rec.g.Rounds[i]
		if rd.WallSeed == "" {
			got.WallSeed, got.Commitment = "", ""
		}
		if rd.Commitment == "" {
			got.Commitment = ""
		}
		compareRound(rep, i, rd, &got)
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

// compareRound compares a recorded hand with its replay, field by field.
func compareRound(rep *record.Report, i int, want, got *Round) {
	eq := func(field string, a, b any) {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			add(rep, i, field, -1, "%s, but the replay makes %s", ja, jb)
		}
	}
	eq("dealer", want.Dealer, got.Dealer)
	eq("round", want.Round, got.Round)
	eq("scores", want.Scores, got.Scores)
	eq("result", want.Result, got.Result)
}
