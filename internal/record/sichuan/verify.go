package sichuan

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/record"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Verify checks a Sichuan record as package record's Verify checks a
// riichi one, and reports in the same Report:
//
//   - every hand that has a wall seed: its commitment is
//     fair.Commit(seed, table id, hand index), and every dealt tile, draw
//     and the exchange direction are those of the engine's wall of the
//     seed (table/sichuan.NewWall);
//   - when the record reveals the server seed: its commitment, and that
//     each hand's seed derives from it and the seats' entropy;
//   - the engine replays the record on the seeds' walls (or, for hands
//     without a seed, on walls stacked from the recorded tiles) and a
//     Recorder of the replay makes the same record, hand by hand.
//
// Verify returns an error only for a record it cannot read (bad hex).
func Verify(g *Game) (*record.Report, error) {
	rep := &record.Report{ID: g.ID, Rounds: len(g.Rounds)}
	rules, err := g.Rules.Engine()
	if err != nil {
		add(rep, -1, "rules", -1, "%v", err)
		return rep, nil
	}
	walls := make([]sc.Wall, len(g.Rounds))
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		if rd.WallSeed == "" {
			rep.Unverifiable = append(rep.Unverifiable, i)
			w, err := stacked(rd)
			if err != nil {
				add(rep, i, "hands", -1, "%v", err)
				return rep, nil
			}
			walls[i] = w
			continue
		}
		seed, err := hex32(rd.WallSeed)
		if err != nil {
			return nil, fmt.Errorf("record: round %d: wall_seed: %w", i, err)
		}
		w := sc.NewWall(seed)
		w.Commitment = fair.Commit(seed, g.TableID, uint32(i))
		walls[i] = w
		before := len(rep.Problems)
		if rd.Commitment == "" {
			add(rep, i, "commitment", -1, "missing")
		} else if !strings.EqualFold(rd.Commitment, hex.EncodeToString(w.Commitment[:])) {
			add(rep, i, "commitment", -1, "%.16s... is not the commitment to the wall seed for table %q, hand %d", rd.Commitment, g.TableID, i)
		}
		checkTiles(rep, i, rd, &w)
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

// dealtTiles is the dealt hand of each seat of a wall, in the order dealt.
func dealtTiles(w *sc.Wall, dealer int) [4][]tile.Tile {
	var out [4][]tile.Tile
	for off := range sc.NumSeats {
		n := 13
		if off == 0 {
			n = 14
		}
		for i := range n {
			out[(dealer+off)%sc.NumSeats] = append(out[(dealer+off)%sc.NumSeats], w.Tiles[sc.DealPos(off, i)])
		}
	}
	return out
}

// checkTiles compares a hand's recorded tiles with its wall.
func checkTiles(rep *record.Report, i int, rd *Round, w *sc.Wall) {
	if rd.Dealer < 0 || rd.Dealer >= sc.NumSeats {
		add(rep, i, "dealer", -1, "%d", rd.Dealer)
		return
	}
	want := dealtTiles(w, rd.Dealer)
	for s := range sc.NumSeats {
		if got := rd.Hands[s]; got != formatEach(want[s]) {
			add(rep, i, "hands", s, "%s, but the wall of the seed deals %s", got, formatEach(want[s]))
		}
	}
	draws, err := tile.Parse(rd.Draws)
	if err != nil || len(draws) > sc.LiveSize {
		add(rep, i, "draws", -1, "%q does not read as at most %d tiles", rd.Draws, sc.LiveSize)
		return
	}
	for j, x := range draws {
		if y := w.Tiles[sc.LivePos(j)]; x != y {
			add(rep, i, "draws", j, "%v, but the wall of the seed has %v", x, y)
		}
	}
	if rd.Direction != w.Direction.String() {
		add(rep, i, "direction", -1, "%s, but the seed draws %s", rd.Direction, w.Direction)
	}
}

// stacked builds the wall of a hand without a seed from its recorded
// tiles: the dealt hands and draws at their positions, the rest filled.
func stacked(rd *Round) (sc.Wall, error) {
	if rd.Dealer < 0 || rd.Dealer >= sc.NumSeats {
		return sc.Wall{}, fmt.Errorf("dealer %d", rd.Dealer)
	}
	var st sc.Stack
	for off := range sc.NumSeats {
		ts, err := tile.Parse(rd.Hands[(rd.Dealer+off)%sc.NumSeats])
		if err != nil {
			return sc.Wall{}, err
		}
		for n, x := range ts {
			if n > 13 || n == 13 && off != 0 {
				return sc.Wall{}, fmt.Errorf("seat %d dealt %d tiles", (rd.Dealer+off)%sc.NumSeats, len(ts))
			}
			if err := st.Put(sc.DealPos(off, n), x); err != nil {
				return sc.Wall{}, err
			}
		}
	}
	draws, err := tile.Parse(rd.Draws)
	if err != nil || len(draws) > sc.LiveSize {
		return sc.Wall{}, fmt.Errorf("draws %q", rd.Draws)
	}
	for j, x := range draws {
		if err := st.Put(sc.LivePos(j), x); err != nil {
			return sc.Wall{}, err
		}
	}
	d := sc.ToNext
	for x := sc.ToNext; x <= sc.Across; x++ {
		if x.String() == rd.Direction {
			d = x
		}
	}
	return st.Wall(d)
}

// checkChain checks the server seed against its commitment and every
// hand's seed against the derivation from it and the entropy.
func checkChain(rep *record.Report, g *Game) {
	if g.ServerSeed == "" {
		rep.ChainMsg = "the record reveals no server seed (a replay, or a match not over)"
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
func replayed(rep *record.Report, g *Game, rules sc.Rules, walls []sc.Wall) {
	t, err := sc.New(sc.Config{Rules: rules})
	if err != nil {
		add(rep, -1, "rules", -1, "%v", err)
		return
	}
	rec := NewRecorder(g.ID, rules)
	before := len(rep.Problems)
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		w := walls[i]
		if t.Phase() != sc.BetweenHands {
			add(rep, i, "rounds", -1, "the engine is %v, not between hands", t.Phase())
			return
		}
		a := sc.Action{Type: sc.Deal, Wall: &w}
		evs, err := t.Step(a)
		if err != nil {
			add(rep, i, "hands", -1, "the engine refused the deal: %v", err)
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
		got, err := rec.done.Last()
		if err != nil {
			add(rep, i, "actions", len(rd.Actions), "the replay's record: %v", err)
			return
		}
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
		add(rep, -1, "partial", -1, "the match is over after the recorded hands")
	case !g.Partial && !rec.Over():
		add(rep, -1, "partial", -1, "the match goes on after the recorded hands")
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
	eq("scores", want.Scores, got.Scores)
	eq("hands", want.Hands, got.Hands)
	eq("draws", want.Draws, got.Draws)
	eq("direction", want.Direction, got.Direction)
	eq("result", want.Result, got.Result)
}
