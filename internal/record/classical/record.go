// Package classical is the native record of a classical game (package
// table/classical): every hand's wall, actions and result, and the seeds
// and commitments that prove its walls fair. A Recorder builds it from the
// engine's steps; Read and Write move it as one JSON line per game, in the
// shape of riichi's native record (package record) where the games share
// it; Verify checks one, replaying it through the engine.
//
// A hand is recorded only once it is over, when its wall's seed is
// public: the record then holds the whole wall (144 tiles in layout
// order), which says everything the seed says, and a hand without a seed
// (a stacked wall) is replayed on it.
package classical

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mahjong-authority/authority/internal/record"
	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// Variant is the value of rules.variant in a classical record.
const Variant = "classical"

// Game is one classical game.
type Game struct {
	ID          string   `json:"id"`
	TableID     string   `json:"table_id,omitempty"` // bound into every commitment
	Names       []string `json:"names,omitempty"`
	Rules       Rules    `json:"rules"`
	StartScores [4]int   `json:"start_scores"`
	Rounds      []Round  `json:"rounds"`
	FinalScores *[4]int  `json:"final_scores,omitempty"`
	Partial     bool     `json:"partial,omitempty"` // the game has not ended: only its finished hands
	// The table seed's derivation (package fair), hex: the server seed
	// and the entropy only once the game is over.
	SeedCommitment string   `json:"seed_commitment,omitempty"`
	ServerSeed     string   `json:"server_seed,omitempty"`
	Entropy        []string `json:"entropy,omitempty"`
}

// Rules are the table's options, as the record writes them.
type Rules struct {
	Variant      string `json:"variant"` // "classical"
	Limit        int    `json:"limit"`
	FishingFirst bool   `json:"fishing_first"`
	Rounds       int    `json:"rounds"`
}

// RulesOf is the record's form of the engine's rules.
func RulesOf(r ct.Rules) Rules {
	return Rules{Variant: Variant, Limit: r.Limit, FishingFirst: r.FishingFirst, Rounds: r.Rounds}
}

// Engine is the engine's rules of a record's.
func (r Rules) Engine() (ct.Rules, error) {
	if r.Variant != Variant {
		return ct.Rules{}, fmt.Errorf("rules.variant %q, want %q", r.Variant, Variant)
	}
	return ct.Rules{Name: ct.Default.Name, Limit: r.Limit, FishingFirst: r.FishingFirst, Rounds: r.Rounds}, nil
}

// Round is one hand.
type Round struct {
	Dealer int    `json:"dealer"`
	Round  string `json:"round"`  // the prevailing wind: "E", "S", "W", "N"
	Scores [4]int `json:"scores"` // at the deal
	// Wall is the hand's 144 tiles in layout order (docs/rules/classical.md).
	Wall    string   `json:"wall"`
	Actions []Action `json:"actions"`
	Result  Result   `json:"result"`
	// WallSeed is the hand's wall seed and Commitment the commitment the
	// seats received before the deal, hex; empty for a stacked wall.
	WallSeed   string `json:"wall_seed,omitempty"`
	Commitment string `json:"commitment,omitempty"`
}

// Action is one recorded action: Tile only for the types that take one.
type Action struct {
	Seat int    `json:"seat"`
	Type string `json:"type"`
	Tile string `json:"tile,omitempty"`
}

// Result is how a hand ended and what it moved.
type Result struct {
	End    string `json:"end"` // "mah_jong" or "wash"
	Winner int    `json:"winner,omitempty"`
	From   int    `json:"from,omitempty"` // the discarder or the robbed seat; the winner when self-drawn
	Tile   string `json:"tile,omitempty"` // the winning tile
	Lines  []Line `json:"lines,omitempty"`
	Deltas [4]int `json:"deltas"`
}

// Line is one seat's score line at the settlement.
type Line struct {
	Score   int    `json:"score"`
	Points  int    `json:"points"`
	Doubles int    `json:"doubles"`
	Special string `json:"special,omitempty"`
	Fishing bool   `json:"fishing,omitempty"`
}

// maxLine bounds one record line.
const maxLine = 16 << 20

// Decode reads one game from its JSON.
func Decode(b []byte) (*Game, error) {
	var g Game
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("%w: %v", record.ErrSyntax, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value", record.ErrSyntax)
	}
	return &g, nil
}

// IsClassical reports whether a record line is a classical game's: its
// rules.variant is "classical".
func IsClassical(b []byte) bool {
	var probe struct {
		Rules struct {
			Variant string `json:"variant"`
		} `json:"rules"`
	}
	return json.Unmarshal(b, &probe) == nil && probe.Rules.Variant == Variant
}

// Read reads games, one JSON object per line, and calls f with each and
// its line number until f returns an error. Blank lines are skipped.
func Read(r io.Reader, f func(line int, g *Game) error) error {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 1<<20), maxLine)
	line := 0
	for s.Scan() {
		line++
		b := bytes.TrimSpace(s.Bytes())
		if len(b) == 0 {
			continue
		}
		g, err := Decode(b)
		if err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
		if err := f(line, g); err != nil {
			return err
		}
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("line %d: %w: %v", line+1, record.ErrSyntax, err)
	}
	return nil
}

// Write writes g as one line of JSON.
func Write(w io.Writer, g *Game) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		return fmt.Errorf("record: encode game %q: %w", g.ID, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// formatEach writes tiles in order with one suffix per tile ("2s4s1f").
func formatEach(ts []tile.Tile) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String())
	}
	return b.String()
}

// WallOf reads a recorded wall: 144 tiles in layout order.
func WallOf(s string) (wall.Wall144, error) {
	var w wall.Wall144
	ts, err := tile.Parse(s)
	if err != nil {
		return w, err
	}
	if len(ts) != wall.Size144 {
		return w, fmt.Errorf("%d tiles, want %d", len(ts), wall.Size144)
	}
	copy(w.Tiles[:], ts)
	return w, w.Check()
}

var actionTypes = func() map[string]ct.ActionType {
	m := map[string]ct.ActionType{}
	for t := ct.Discard; t <= ct.Pass; t++ {
		m[t.String()] = t
	}
	return m
}()

func takesTile(t ct.ActionType) bool { return t != ct.Pass && t != ct.Fish }

// ActionOf is the recorded form of a seat's action.
func ActionOf(a ct.Action) Action {
	out := Action{Seat: int(a.Seat), Type: a.Type.String()}
	if takesTile(a.Type) {
		out.Tile = a.Tile.String()
	}
	return out
}

// Engine is the engine's action of a recorded one.
func (a Action) Engine() (ct.Action, error) {
	typ, ok := actionTypes[a.Type]
	if !ok {
		return ct.Action{}, fmt.Errorf("type %q", a.Type)
	}
	if a.Seat < 0 || a.Seat >= ct.NumSeats {
		return ct.Action{}, fmt.Errorf("seat %d", a.Seat)
	}
	out := ct.Action{Seat: ct.Seat(a.Seat), Type: typ}
	if takesTile(typ) {
		x, err := tile.ParseTile(a.Tile)
		if err != nil {
			return ct.Action{}, fmt.Errorf("tile %q", a.Tile)
		}
		out.Tile = x
	}
	return out, nil
}
