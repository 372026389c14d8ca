// Package sichuan is the native record of a Sichuan game (package
// table/sichuan): every hand's dealt tiles, draws, exchange direction and
// actions, its result, and the seeds and commitments that prove its walls
// fair. A Recorder builds it from the engine's steps; Read and Write move
// it as one JSON line per game, in the shape of riichi's native record
// (package record) where the games share it; Verify checks one, replaying
// it through the engine. docs/records.md describes the format.
package sichuan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/mahjong-authority/authority/internal/record"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Variant is the value of rules.variant in a Sichuan record.
const Variant = "sichuan"

// Game is one Sichuan match.
type Game struct {
	ID          string   `json:"id"`
	TableID     string   `json:"table_id,omitempty"` // bound into every commitment
	Names       []string `json:"names,omitempty"`
	Rules       Rules    `json:"rules"`
	StartScores [4]int   `json:"start_scores"`
	Rounds      []Round  `json:"rounds"`
	FinalScores *[4]int  `json:"final_scores,omitempty"`
	Partial     bool     `json:"partial,omitempty"` // the match has not ended: only its finished hands
	// The table seed's derivation (package fair), hex: as in riichi's
	// record, the server seed and the entropy only once the match is over.
	SeedCommitment string   `json:"seed_commitment,omitempty"`
	ServerSeed     string   `json:"server_seed,omitempty"`
	Entropy        []string `json:"entropy,omitempty"`
}

// Rules are the table's options, as the record writes them.
type Rules struct {
	Variant     string `json:"variant"` // "sichuan"
	Exchange    bool   `json:"exchange"`
	VoidFirst   bool   `json:"void_first"`
	PassLock    bool   `json:"pass_lock"`
	BloodyRiver bool   `json:"bloody_river"`
	FanCap      int    `json:"fan_cap"`
	Hands       int    `json:"hands"`
}

// RulesOf is the record's form of the engine's rules.
func RulesOf(r sc.Rules) Rules {
	return Rules{Variant: Variant, Exchange: r.Exchange, VoidFirst: r.VoidFirst, PassLock: r.PassLock,
		BloodyRiver: r.BloodyRiver, FanCap: r.FanCap, Hands: r.Hands}
}

// Engine is the engine's rules of a record's.
func (r Rules) Engine() (sc.Rules, error) {
	if r.Variant != Variant {
		return sc.Rules{}, fmt.Errorf("rules.variant %q, want %q", r.Variant, Variant)
	}
	out := sc.Rules{Name: "sichuan", Exchange: r.Exchange, VoidFirst: r.VoidFirst, PassLock: r.PassLock,
		BloodyRiver: r.BloodyRiver, FanCap: r.FanCap, Hands: r.Hands}
	if out.BloodyRiver {
		out.Name = sc.BloodyRiver.Name
	}
	return out, nil
}

// Round is one hand.
type Round struct {
	Dealer int    `json:"dealer"`
	Scores [4]int `json:"scores"` // at the deal
	// Hands are the tiles dealt to each seat, in the order dealt (the
	// dealer's fourteenth last); Draws the tiles drawn from the live wall,
	// in order, replacement draws included; Direction the exchange's.
	Hands     [4]string `json:"hands"`
	Draws     string    `json:"draws"`
	Direction string    `json:"direction"`
	Actions   []Action  `json:"actions"`
	Result    Result    `json:"result"`
	// WallSeed is the hand's wall seed and Commitment the commitment the
	// seats received before the deal, hex; empty for a stacked wall.
	WallSeed   string `json:"wall_seed,omitempty"`
	Commitment string `json:"commitment,omitempty"`
}

// Action is one recorded action: the fields its type does not use are
// left out. Exchange tiles are in the order given, one suffix each.
type Action struct {
	Seat  int    `json:"seat"`
	Type  string `json:"type"`
	Tile  string `json:"tile,omitempty"`
	Tiles string `json:"tiles,omitempty"`
	Suit  string `json:"suit,omitempty"`
}

// Result is how a hand ended and what it moved.
type Result struct {
	End    string `json:"end"` // "three_won" or "wall_empty"
	Deltas [4]int `json:"deltas"`
	Wins   []Win  `json:"wins,omitempty"`
}

// Win is one win of the hand, in order.
type Win struct {
	Seat  int    `json:"seat"`
	From  int    `json:"from"`
	Tile  string `json:"tile"`
	Fan   int    `json:"fan"`
	Value int    `json:"value"`
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

// IsSichuan reports whether a record line is a Sichuan game's: its
// rules.variant is "sichuan".
func IsSichuan(b []byte) bool {
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

// formatEach writes tiles in order with one suffix per tile ("2s4s1s").
func formatEach(ts []tile.Tile) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String())
	}
	return b.String()
}

var actionTypes = func() map[string]sc.ActionType {
	m := map[string]sc.ActionType{}
	for t := sc.Exchange; t <= sc.Pass; t++ {
		m[t.String()] = t
	}
	return m
}()

// ActionOf is the recorded form of a seat's action.
func ActionOf(a sc.Action) Action {
	out := Action{Seat: int(a.Seat), Type: a.Type.String()}
	switch a.Type {
	case sc.Exchange:
		out.Tiles = formatEach(a.Tiles[:])
	case sc.Void:
		out.Suit = a.Suit.String()
	case sc.Discard, sc.ClosedKan, sc.AddedKan:
		out.Tile = a.Tile.String()
	}
	return out
}

// Engine is the engine's action of a recorded one.
func (a Action) Engine() (sc.Action, error) {
	typ, ok := actionTypes[a.Type]
	if !ok {
		return sc.Action{}, fmt.Errorf("type %q", a.Type)
	}
	if a.Seat < 0 || a.Seat >= sc.NumSeats {
		return sc.Action{}, fmt.Errorf("seat %d", a.Seat)
	}
	out := sc.Action{Seat: sc.Seat(a.Seat), Type: typ}
	switch typ {
	case sc.Exchange:
		ts, err := tile.Parse(a.Tiles)
		if err != nil || len(ts) != 3 {
			return sc.Action{}, fmt.Errorf("tiles %q", a.Tiles)
		}
		copy(out.Tiles[:], ts)
	case sc.Void:
		switch a.Suit {
		case "m":
			out.Suit = tile.Man
		case "p":
			out.Suit = tile.Pin
		case "s":
			out.Suit = tile.Sou
		default:
			return sc.Action{}, fmt.Errorf("suit %q", a.Suit)
		}
	case sc.Discard, sc.ClosedKan, sc.AddedKan:
		x, err := tile.ParseTile(a.Tile)
		if err != nil {
			return sc.Action{}, fmt.Errorf("tile %q", a.Tile)
		}
		out.Tile = x
	}
	return out, nil
}
