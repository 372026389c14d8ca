// Package replay replays recorded games through the table state machine,
// as docs/replay.md says: walls stacked as recorded,
// the recorded actions fed in, the seats that do not act after a discard
// passing, and every round's result and the game's end compared with the
// record. The table decides every outcome; the record is only compared.
package replay

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Game is one recorded game, one line of the JSONL input.
type Game struct {
	ID          string    `json:"id"`
	Rules       GameRules `json:"rules"`
	StartScores [4]int    `json:"start_scores"`
	Rounds      []Round   `json:"rounds"`
	FinalScores *[4]int   `json:"final_scores"`
	Partial     bool      `json:"partial"`
}

// GameRules are the record's rules.
type GameRules struct {
	Variant string `json:"variant"`
	Aka     bool   `json:"aka"`
	Kuitan  bool   `json:"kuitan"`
	Length  string `json:"length"`
}

// Round is one recorded round. Package record's rounds embed it, adding
// the fields of the authority's own records.
type Round struct {
	RoundWind      string    `json:"round_wind"`
	Dealer         int       `json:"dealer"`
	Honba          int       `json:"honba"`
	RiichiSticks   int       `json:"riichi_sticks"`
	Scores         [4]int    `json:"scores"`
	Hands          [4]string `json:"hands"`
	Draws          string    `json:"draws"`
	DoraIndicators string    `json:"dora_indicators"`
	UraIndicators  string    `json:"ura_indicators"`
	Rinshan        string    `json:"rinshan"`
	Actions        []Act     `json:"actions"`
	Result         Result    `json:"result"`
}

// Result is a recorded round's result.
type Result struct {
	Deltas [4]int `json:"deltas"`
}

// Act is one recorded action, as the contract writes it: the fields its
// type does not use are left out.
type Act struct {
	Seat      int    `json:"seat"`
	Type      string `json:"type"`
	Tile      string `json:"tile,omitempty"`
	Tiles     string `json:"tiles,omitempty"`
	Called    string `json:"called,omitempty"`
	Tsumogiri bool   `json:"tsumogiri,omitempty"`
}

// Outcome is the replay of one game, the JSON object the contract writes.
type Outcome struct {
	ID          string         `json:"id"`
	OK          bool           `json:"ok"`
	Rounds      []RoundOutcome `json:"rounds,omitempty"`
	FinalScores *[4]int        `json:"final_scores,omitempty"`
	Round       *int           `json:"round,omitempty"`
	Step        *int           `json:"step,omitempty"`
	Error       string         `json:"error,omitempty"`
}

// RoundOutcome is one replayed round's result.
type RoundOutcome struct {
	Deltas [4]int `json:"deltas"`
}

// ErrMismatch is what every replay failure matches: the table refused a
// recorded action or reached a result the record does not show.
var ErrMismatch = errors.New("replay: mismatch")

// Error is a replay failure at a round and step (both from 0; the step is
// the index of the action in the round, or the number of actions for a
// failure after the last one).
type Error struct {
	Round, Step int
	Err         error
}

func (e *Error) Error() string { return fmt.Sprintf("round %d step %d: %v", e.Round, e.Step, e.Err) }
func (e *Error) Unwrap() error { return e.Err }

// Play replays g and returns its outcome. It never panics on bad records:
// they come back as an outcome with OK false.
func Play(g *Game) Outcome {
	return Watch(g, nil)
}

// Step is one step of a replay: the action fed to the table in round
// (from 0), and the events it caused, or the table's refusal.
type Step struct {
	Round  int
	Action table.Action
	Events []table.Event
	Err    error
}

// Watch is Play that also shows every step to watch, in order, as it is
// taken: recorders rebuild a game's full record from them.
func Watch(g *Game, watch func(Step)) Outcome {
	return Run(g, Options{Watch: watch})
}

// Options change how Run replays a game.
type Options struct {
	// Watch, if set, sees every step (see Watch).
	Watch func(Step)
	// Wall, if set, gives the wall of a round (from 0) instead of the one
	// stacked from the record: a verifier deals the walls recomputed from
	// the revealed seeds, so that every tile the table hands out comes
	// from them. It returns false for a round to stack as usual.
	Wall func(round int) (wall.Wall, bool)
}

// Run is Play with options.
func Run(g *Game, o Options) Outcome {
	out := Outcome{ID: g.ID}
	deltas, final, err := play(g, o)
	if err != nil {
		var re *Error
		if errors.As(err, &re) {
			out.Round, out.Step = &re.Round, &re.Step
		} else {
			zero := 0
			out.Round, out.Step = &zero, &zero
		}
		out.Error = err.Error()
		return out
	}
	out.OK = true
	out.Rounds = deltas
	if !g.Partial {
		out.FinalScores = &final
	}
	return out
}

// Rules maps a record's rules to a table rule set.
func Rules(r GameRules) (table.Rules, error) {
	if r.Variant != "riichi" {
		return table.Rules{}, fmt.Errorf("%w: variant %q", ErrMismatch, r.Variant)
	}
	var rules table.Rules
	switch r.Length {
	case "hanchan", "":
		rules = table.TenhouHanchan
	case "tonpuu":
		rules = table.TenhouTonpuu
	default:
		return table.Rules{}, fmt.Errorf("%w: length %q", ErrMismatch, r.Length)
	}
	rules.Aka = r.Aka
	rules.Scoring.AkaDora = r.Aka
	rules.Scoring.OpenTanyao = r.Kuitan
	return rules, nil
}

func play(g *Game, o Options) ([]RoundOutcome, [4]int, error) {
	var final [4]int
	rules, err := Rules(g.Rules)
	if err != nil {
		return nil, final, &Error{0, 0, err}
	}
	t, err := table.New(table.Config{Rules: rules, StartScores: g.StartScores})
	if err != nil {
		return nil, final, &Error{0, 0, fmt.Errorf("%w: %v", ErrMismatch, err)}
	}
	if len(g.Rounds) == 0 {
		return nil, final, &Error{0, 0, fmt.Errorf("%w: no rounds", ErrMismatch)}
	}
	d := driver{t: t, watch: o.Watch, walls: o.Wall}
	outs := make([]RoundOutcome, 0, len(g.Rounds))
	for i := range g.Rounds {
		rd := &g.Rounds[i]
		if t.Phase() == table.GameOver {
			return nil, final, &Error{i, 0, fmt.Errorf("%w: the table ended the game after round %d, the record goes on", ErrMismatch, i-1)}
		}
		d.roundNo = i
		step, end, err := d.round(rd)
		if err != nil {
			return nil, final, &Error{i, step, err}
		}
		if end.Deltas != rd.Result.Deltas {
			return nil, final, &Error{i, len(rd.Actions), fmt.Errorf("%w: round ended %v with deltas %v, record %v", ErrMismatch, end.Kind, end.Deltas, rd.Result.Deltas)}
		}
		outs = append(outs, RoundOutcome{Deltas: end.Deltas})
	}
	last := len(g.Rounds) - 1
	if g.Partial {
		return outs, final, nil
	}
	if t.Phase() != table.GameOver {
		return nil, final, &Error{last, len(g.Rounds[last].Actions), fmt.Errorf("%w: the table goes on after the last recorded round", ErrMismatch)}
	}
	final = d.final
	if g.FinalScores == nil {
		return nil, final, &Error{last, len(g.Rounds[last].Actions), fmt.Errorf("%w: the record has no final scores", ErrMismatch)}
	}
	if final != *g.FinalScores {
		return nil, final, &Error{last, len(g.Rounds[last].Actions), fmt.Errorf("%w: final scores %v, record %v", ErrMismatch, final, *g.FinalScores)}
	}
	return outs, final, nil
}

// driver feeds one table.
type driver struct {
	t       *table.Table
	lenient bool        // skip the round-start check (flow tests)
	wins    []table.Won // the round's wins
	watch   func(Step)
	walls   func(round int) (wall.Wall, bool)
	roundNo int
	end     *table.RoundEnded
	final   [4]int
	view    table.View // a spectator's, taken at every round's start
}

func (d *driver) step(a table.Action) error {
	evs, err := d.t.Step(a)
	if d.watch != nil {
		d.watch(Step{Round: d.roundNo, Action: a, Events: evs, Err: err})
	}
	if err != nil {
		return err
	}
	for _, e := range evs {
		switch b := e.Body.(type) {
		case table.RoundEnded:
			d.end = &b
		case table.Won:
			d.wins = append(d.wins, b)
		case table.GameEnded:
			d.final = b.Scores
		}
	}
	return nil
}

// round plays one recorded round; it returns the step of a failure.
func (d *driver) round(rd *Round) (int, table.RoundEnded, error) {
	t := d.t
	v := &d.view // a spectator's view: the table's public state
	t.ViewInto(table.NumSeats, v)
	if w, err := tile.ParseWind(rd.RoundWind); d.lenient && err == nil && w == v.RoundWind && rd.Dealer == int(v.Dealer) {
		// Flow tests: the scores may differ.
	} else if w, err := tile.ParseWind(rd.RoundWind); err != nil || w != v.RoundWind || rd.Dealer != int(v.Dealer) ||
		rd.Honba != v.Honba || rd.RiichiSticks != v.RiichiSticks || rd.Scores != v.Scores {
		return 0, table.RoundEnded{}, fmt.Errorf("%w: the table starts %v %d (dealer %d) with %d honba, %d sticks, scores %v; the record %s (dealer %d) with %d honba, %d sticks, scores %v",
			ErrMismatch, v.RoundWind, v.Number, v.Dealer, v.Honba, v.RiichiSticks, v.Scores, rd.RoundWind, rd.Dealer, rd.Honba, rd.RiichiSticks, rd.Scores)
	}
	w, err := stack(rd, t.Rules().Aka)
	if err != nil {
		return 0, table.RoundEnded{}, fmt.Errorf("%w: %v", ErrMismatch, err)
	}
	if d.walls != nil {
		if given, ok := d.walls(d.roundNo); ok {
			w = given
		}
	}
	d.end, d.wins = nil, d.wins[:0]
	if err := d.step(table.Action{Type: table.Deal, Wall: &w}); err != nil {
		return 0, table.RoundEnded{}, fmt.Errorf("%w: deal: %v", ErrMismatch, err)
	}
	for i := 0; i < len(rd.Actions); {
		act := &rd.Actions[i]
		a, err := d.action(act)
		if err != nil {
			return i, table.RoundEnded{}, fmt.Errorf("%w: %v", ErrMismatch, err)
		}
		if t.Phase() == table.ClaimWindow && !isClaim(a.Type) {
			if err := d.passAll(); err != nil {
				return i, table.RoundEnded{}, err
			}
			continue
		}
		if ph := t.Phase(); ph == table.BetweenRounds || ph == table.GameOver {
			return i, table.RoundEnded{}, fmt.Errorf("%w: the table ended the round (%v), the record goes on with %s", ErrMismatch, d.end.Kind, act.Type)
		}
		if err := d.step(a); err != nil {
			return i, table.RoundEnded{}, fmt.Errorf("%w: %v", ErrMismatch, err)
		}
		i++
	}
	if t.Phase() == table.ClaimWindow {
		if err := d.passAll(); err != nil {
			return len(rd.Actions), table.RoundEnded{}, err
		}
	}
	if d.end == nil {
		return len(rd.Actions), table.RoundEnded{}, fmt.Errorf("%w: the record's actions end but the table's round goes on (%v)", ErrMismatch, t.Phase())
	}
	return len(rd.Actions), *d.end, nil
}

// passAll answers Pass for every seat the claim window waits for.
func (d *driver) passAll() error {
	for s := range table.Seat(table.NumSeats) {
		if d.t.Waiting(s) && d.t.Phase() == table.ClaimWindow {
			if err := d.step(table.Action{Seat: s, Type: table.Pass}); err != nil {
				return fmt.Errorf("%w: pass: %v", ErrMismatch, err)
			}
		}
	}
	return nil
}

func isClaim(t table.ActionType) bool {
	switch t {
	case table.Ron, table.Chi, table.Pon, table.OpenKan:
		return true
	}
	return false
}

// action converts a recorded action.
func (d *driver) action(act *Act) (table.Action, error) {
	if act.Seat < 0 || act.Seat >= table.NumSeats {
		return table.Action{}, fmt.Errorf("seat %d", act.Seat)
	}
	a := table.Action{Seat: table.Seat(act.Seat)}
	one := func(s string) (tile.Tile, error) {
		x, err := tile.ParseTile(s)
		if err != nil {
			return 0, fmt.Errorf("%s: %w", act.Type, err)
		}
		return x, nil
	}
	var err error
	switch act.Type {
	case "discard", "riichi":
		a.Type = table.Discard
		if act.Type == "riichi" {
			a.Type = table.Riichi
		}
		a.Tile, err = one(act.Tile)
		a.Tsumogiri = act.Tsumogiri
	case "chi", "pon":
		a.Type = table.Chi
		if act.Type == "pon" {
			a.Type = table.Pon
		}
		ts, perr := tile.Parse(act.Tiles)
		if perr != nil || len(ts) != 2 {
			return a, fmt.Errorf("%s: tiles %q: want two tiles", act.Type, act.Tiles)
		}
		a.Tiles = [2]tile.Tile{ts[0], ts[1]}
		var called tile.Tile
		if called, err = one(act.Called); err == nil {
			err = d.checkClaimed(called)
		}
	case "kan_open":
		a.Type = table.OpenKan
		if a.Tile, err = one(act.Tile); err == nil {
			err = d.checkClaimed(a.Tile)
		}
	case "kan_closed":
		a.Type = table.ClosedKan
		a.Tile, err = one(act.Tile)
	case "kan_added":
		a.Type = table.AddedKan
		a.Tile, err = one(act.Tile)
	case "tsumo":
		a.Type = table.Tsumo
	case "ron":
		a.Type = table.Ron
	case "abort_nine_terminals":
		a.Type = table.NineTerminals
	default:
		return a, fmt.Errorf("unknown action type %q", act.Type)
	}
	return a, err
}

// checkClaimed checks a recorded call's tile against the discard the table
// offers.
func (d *driver) checkClaimed(x tile.Tile) error {
	if d.t.Phase() != table.ClaimWindow {
		return nil // Step refuses the call
	}
	if got, ok := d.t.ClaimTile(); ok && got != x {
		return fmt.Errorf("the record calls %v, the claimable tile is %v", x, got)
	}
	return nil
}

func stack(rd *Round, aka bool) (wall.Wall, error) {
	if rd.Dealer < 0 || rd.Dealer >= table.NumSeats {
		return wall.Wall{}, fmt.Errorf("dealer %d", rd.Dealer)
	}
	// Every field is parsed into one buffer, with room for a whole wall:
	// a round allocates once for its tiles, and names its fields in
	// errors only.
	var sc wall.Script
	buf := make([]tile.Tile, 0, wall.Size)
	parse := func(s string) ([]tile.Tile, error) {
		start := len(buf)
		var err error
		buf, err = tile.AppendParse(buf, s)
		return buf[start:len(buf):len(buf)], err
	}
	for off := range table.NumSeats {
		s := (rd.Dealer + off) % table.NumSeats
		ts, err := parse(rd.Hands[s])
		switch {
		case err != nil:
			return wall.Wall{}, fmt.Errorf("hand %d: %w", s, err)
		case len(ts) != 13:
			return wall.Wall{}, fmt.Errorf("hand %d: %d tiles, want 13", s, len(ts))
		}
		sc.Hands[off] = ts
	}
	for _, f := range [...]struct {
		what string
		s    string
		dst  *[]tile.Tile
	}{
		{"draws", rd.Draws, &sc.Draws},
		{"rinshan", rd.Rinshan, &sc.Rinshan},
		{"dora_indicators", rd.DoraIndicators, &sc.Dora},
		{"ura_indicators", rd.UraIndicators, &sc.Ura},
	} {
		ts, err := parse(f.s)
		if err != nil {
			return wall.Wall{}, fmt.Errorf("%s: %w", f.what, err)
		}
		*f.dst = ts
	}
	return wall.Stacked(&sc, aka)
}

// Decode reads one game from a JSON line.
func Decode(line []byte) (*Game, error) {
	var g Game
	if err := json.Unmarshal(line, &g); err != nil {
		return nil, fmt.Errorf("replay: decode game: %w", err)
	}
	return &g, nil
}
