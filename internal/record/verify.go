package record

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Errors of Verify.
var (
	// ErrTampered: the record contradicts its seeds, its commitments or
	// the table's replay of it. The Report says where.
	ErrTampered = errors.New("record: the record does not verify")
	// ErrUnverifiable: rounds of the record have no wall seed (a stacked
	// replay, or a host that publishes none), so nothing proves their
	// walls were fair.
	ErrUnverifiable = errors.New("record: rounds without a wall seed cannot be verified")
)

// Problem is one place where a record fails to verify.
type Problem struct {
	Round int    // from 0; -1 for the game as a whole
	Field string // the record's field: "hands", "draws", "commitment", "actions", ...
	Pos   int    // the index in the field (a tile, an action, a seat); -1 if none
	Msg   string
}

func (p Problem) String() string {
	where := "game"
	if p.Round >= 0 {
		where = fmt.Sprintf("round %d", p.Round)
	}
	if p.Pos >= 0 {
		return fmt.Sprintf("%s: %s[%d]: %s", where, p.Field, p.Pos, p.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", where, p.Field, p.Msg)
}

// Report is what Verify found.
type Report struct {
	ID           string
	Rounds       int   // rounds in the record
	Verified     int   // rounds whose wall, commitment and tiles were checked against their seed
	Unverifiable []int // rounds without a wall seed
	// Chain says whether the round seeds were checked against the table
	// seed's derivation (server seed, its commitment, the entropy).
	Chain    bool
	ChainMsg string // why not, when Chain is false
	Replayed bool   // the table replayed the record on the seeds' walls and agreed with every field
	Problems []Problem
}

// Err is nil for a record that verified in full, ErrTampered (wrapped with
// the first problem) if anything failed, and ErrUnverifiable if nothing
// failed but rounds had no seed.
func (r *Report) Err() error {
	switch {
	case len(r.Problems) > 0:
		return fmt.Errorf("%w: %s (%d problems)", ErrTampered, r.Problems[0], len(r.Problems))
	case len(r.Unverifiable) > 0:
		return fmt.Errorf("%w: %d of %d rounds (%v)", ErrUnverifiable, len(r.Unverifiable), r.Rounds, r.Unverifiable)
	}
	return nil
}

func (r *Report) add(round int, field string, pos int, format string, args ...any) {
	r.Problems = append(r.Problems, Problem{Round: round, Field: field, Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Verify checks a native record:
//
//   - every round that has a wall seed: the commitment is
//     fair.Commit(seed, table id, round index), and every dealt hand,
//     draw, replacement tile, dora and ura indicator of the record is the
//     tile at its position of wall.New(seed);
//   - when the record reveals the server seed: its commitment, and that
//     each round seed derives from it and the seats' entropy;
//   - the table replays the record, dealing the walls of the seeds, and
//     reaches the record's every tile, action and result (package replay
//     compares results, the Recorder's record of the replay is compared
//     with the record field by field).
//
// Rounds without a seed are replayed on walls stacked from the record and
// reported as unverifiable. Verify returns an error only for a record it
// cannot read (bad hex); everything else is in the Report (see Err).
func Verify(g *Game) (*Report, error) {
	rep := &Report{ID: g.ID, Rounds: len(g.Rounds)}
	rules, err := replay.Rules(g.Rules)
	if err != nil {
		rep.add(-1, "rules", -1, "%v", err)
		return rep, nil
	}
	walls := make([]*wall.Wall, len(g.Rounds))
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		if rd.WallSeed == "" {
			rep.Unverifiable = append(rep.Unverifiable, i)
			continue
		}
		seed, err := hex32(rd.WallSeed)
		if err != nil {
			return nil, fmt.Errorf("record: round %d: wall_seed: %w", i, err)
		}
		w := wall.New(seed, rules.Aka)
		w.Commitment = fair.Commit(seed, g.TableID, uint32(i))
		walls[i] = &w
		before := len(rep.Problems)
		checkCommitment(rep, g, i, &w)
		checkTiles(rep, i, rd, &w)
		if len(rep.Problems) == before {
			rep.Verified++
		}
	}
	checkChain(rep, g)
	if len(g.Rounds) == 0 && g.Partial {
		return rep, nil // a game that has finished no round yet: nothing to replay
	}
	replayed(rep, g, walls)
	return rep, nil
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

func checkCommitment(rep *Report, g *Game, i int, w *wall.Wall) {
	rd := &g.Rounds[i]
	switch {
	case g.TableID == "":
		rep.add(i, "commitment", -1, "the record has no table_id, so the commitment cannot be checked")
	case rd.Commitment == "":
		rep.add(i, "commitment", -1, "missing: the seats received no commitment to the wall seed")
	default:
		c, err := hex32(rd.Commitment)
		if err != nil {
			rep.add(i, "commitment", -1, "%v", err)
		} else if c != w.Commitment {
			rep.add(i, "commitment", -1, "%x is not SHA-256 of the wall seed, table %q and round %d (%x)", c[:8], g.TableID, i, w.Commitment[:8])
		}
	}
}

// checkTiles compares the record's tile fields with the wall's positions.
func checkTiles(rep *Report, i int, rd *Round, w *wall.Wall) {
	if rd.Dealer < 0 || rd.Dealer > 3 {
		rep.add(i, "dealer", -1, "%d is not a seat", rd.Dealer)
		return
	}
	for s, h := range rd.Hands {
		got, err := tile.Parse(h)
		if err != nil {
			rep.add(i, "hands", s, "%v", err)
			continue
		}
		off := (s - rd.Dealer + 4) % 4
		want := make([]tile.Tile, 13)
		for n := range want {
			want[n] = w.Tiles[wall.DealPos(off, n)]
		}
		tile.Sort(got)
		tile.Sort(want)
		if g, wt := tile.Format(got), tile.Format(want); g != wt {
			rep.add(i, "hands", s, "seat %d was dealt %s, the wall deals it %s", s, g, wt)
		}
	}
	ordered := []struct {
		field string
		s     string
		room  int
		pos   func(int) int
	}{
		{"draws", rd.Draws, wall.LiveSize(0), wall.LivePos},
		{"rinshan", rd.Rinshan, wall.MaxKans, wall.RinshanPos},
		{"dora_indicators", rd.DoraIndicators, wall.MaxDora, wall.DoraPos},
		{"ura_indicators", rd.UraIndicators, wall.MaxDora, wall.UraPos},
	}
	for _, f := range ordered {
		ts, err := tile.Parse(f.s)
		if err != nil {
			rep.add(i, f.field, -1, "%v", err)
			continue
		}
		if len(ts) > f.room {
			rep.add(i, f.field, f.room, "%d tiles, the wall has %d places", len(ts), f.room)
			ts = ts[:f.room]
		}
		for n, t := range ts {
			if p := f.pos(n); w.Tiles[p] != t {
				rep.add(i, f.field, n, "record %v, wall position %d holds %v", t, p, w.Tiles[p])
			}
		}
	}
}

// checkChain checks the table seed's derivation when the server seed is
// revealed.
func checkChain(rep *Report, g *Game) {
	if g.ServerSeed == "" {
		rep.ChainMsg = "the record reveals no server seed (a replay, or a game not over)"
		return
	}
	server, err := hex32(g.ServerSeed)
	if err != nil {
		rep.add(-1, "server_seed", -1, "%v", err)
		return
	}
	if g.SeedCommitment == "" {
		rep.add(-1, "seed_commitment", -1, "missing: nothing shows the server seed was fixed before the players' entropy")
	} else if c, err := hex32(g.SeedCommitment); err != nil {
		rep.add(-1, "seed_commitment", -1, "%v", err)
	} else if c != fair.SeedCommitment(server) {
		rep.add(-1, "seed_commitment", -1, "%x is not SHA-256 of the server seed", c[:8])
	}
	var entropy [fair.Seats][]byte
	if len(g.Entropy) != 0 && len(g.Entropy) != fair.Seats {
		rep.add(-1, "entropy", -1, "%d entries, want %d", len(g.Entropy), fair.Seats)
		return
	}
	for s, e := range g.Entropy {
		if entropy[s], err = hex.DecodeString(e); err != nil {
			rep.add(-1, "entropy", s, "%v", err)
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
			rep.add(i, "wall_seed", -1, "%.16s... does not derive from the server seed and the entropy (%x...)", got, want[:8])
		}
	}
	rep.Chain = len(rep.Problems) == before
}

// replayed replays the record on the seeds' walls and compares the record
// the table makes of it with the given one.
func replayed(rep *Report, g *Game, walls []*wall.Wall) {
	got, out := rebuild(g, walls)
	if !out.OK {
		field, pos := "actions", *out.Step
		if r := *out.Round; r < len(g.Rounds) && pos >= len(g.Rounds[r].Actions) {
			field, pos = "result", -1
		}
		rep.add(*out.Round, field, pos, "the table's replay disagrees: %s", out.Error)
		return
	}
	before := len(rep.Problems)
	for i := range g.Rounds {
		compareRound(rep, i, &got.Rounds[i], &g.Rounds[i])
	}
	rep.Replayed = len(rep.Problems) == before
}

// rebuild replays g, dealing walls[i] for round i where it is set, and
// returns the table's record of it.
func rebuild(g *Game, walls []*wall.Wall) (*Game, replay.Outcome) {
	rules, _ := replay.Rules(g.Rules)
	rec := NewRecorder(g.ID, rules, g.StartScores)
	out := replay.Run(g.Contract(), replay.Options{
		Wall: func(i int) (wall.Wall, bool) {
			if i < len(walls) && walls[i] != nil {
				return *walls[i], true
			}
			return wall.Wall{}, false
		},
		Watch: func(st replay.Step) {
			if st.Err == nil {
				rec.Step(st.Action, st.Events)
			}
		},
	})
	got := rec.Game()
	got.TableID, got.Names = g.TableID, g.Names
	got.SeedCommitment, got.ServerSeed, got.Entropy = g.SeedCommitment, g.ServerSeed, g.Entropy
	return got, out
}

// Rebuild replays a record (a native one, or a replay-contract game)
// through the table, dealing the walls of its seeds where it has them and
// walls stacked from its tiles elsewhere, and returns the table's record
// of it: the same fields, plus the engine's events that the tenhou and
// mjai writers need. It fails if the table does not reproduce the record;
// it does not check seeds and commitments (Verify does).
func Rebuild(g *Game) (*Game, error) {
	rules, err := replay.Rules(g.Rules)
	if err != nil {
		return nil, fmt.Errorf("record: game %q: %w", g.ID, err)
	}
	walls := make([]*wall.Wall, len(g.Rounds))
	for i := range g.Rounds {
		if g.Rounds[i].WallSeed == "" {
			continue
		}
		seed, err := hex32(g.Rounds[i].WallSeed)
		if err != nil {
			return nil, fmt.Errorf("record: game %q round %d: wall_seed: %w", g.ID, i, err)
		}
		w := wall.New(seed, rules.Aka)
		if c, err := hex32(g.Rounds[i].Commitment); err == nil {
			w.Commitment = c
		}
		walls[i] = &w
	}
	got, out := rebuild(g, walls)
	if !out.OK {
		return nil, fmt.Errorf("record: game %q: %w: round %d step %d: %s", g.ID, replay.ErrMismatch, *out.Round, *out.Step, out.Error)
	}
	return got, nil
}

// compareRound reports the fields of the replay's round that differ from
// the record's.
func compareRound(rep *Report, i int, got, want *Round) {
	for s := range want.Hands {
		if a, b := sortedHand(got.Hands[s]), sortedHand(want.Hands[s]); a != b {
			rep.add(i, "hands", s, "the replay deals %s, the record %s", a, b)
		}
	}
	fields := []struct{ name, got, want string }{
		{"draws", got.Draws, want.Draws},
		{"rinshan", got.Rinshan, want.Rinshan},
		{"dora_indicators", got.DoraIndicators, want.DoraIndicators},
		{"ura_indicators", got.UraIndicators, want.UraIndicators},
	}
	for _, f := range fields {
		a, _ := tile.Parse(f.got)
		b, _ := tile.Parse(f.want)
		for n := range max(len(a), len(b)) {
			switch {
			case n >= len(a):
				rep.add(i, f.name, n, "the record has %v, the table did not get that far", b[n])
			case n >= len(b):
				rep.add(i, f.name, n, "the table has %v, the record stops before", a[n])
			case a[n] != b[n]:
				rep.add(i, f.name, n, "the table has %v, the record %v", a[n], b[n])
			default:
				continue
			}
			break
		}
	}
	for n := range max(len(got.Actions), len(want.Actions)) {
		var a, b Action
		if n < len(got.Actions) {
			a = got.Actions[n]
		}
		if n < len(want.Actions) {
			b = want.Actions[n]
		}
		if a != b {
			rep.add(i, "actions", n, "the table played %+v, the record %+v", a, b)
			break
		}
	}
	if want.WallSeed != "" && !strings.EqualFold(got.WallSeed, want.WallSeed) {
		rep.add(i, "wall_seed", -1, "the table revealed %s", got.WallSeed)
	}
}

func sortedHand(s string) string {
	ts, err := tile.Parse(s)
	if err != nil {
		return s
	}
	return tile.Format(ts)
}
