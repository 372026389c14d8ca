// Package record is the complete record of a game played on the table
// engine: what every seat was dealt and drew, every action, every result,
// and the seeds and commitments that prove the walls fair. A Recorder builds
// it from the engine's steps (the server records the games it hosts, the
// replayer the games it replays); Read and Write move it as the native
// format, which is the replay contract's (docs/replay.md)
// with fields the contract lets replayers ignore; Verify checks one.
//
// It is its own package because the server, tablectl and the format
// writers (packages tenhou and mjai under it) all need the same record and
// none of them should depend on another.
package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mahjong-authority/authority/internal/replay"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Game is one game. The JSON fields up to Partial are the replay
// contract's; the others extend it. Unlike Round it cannot embed the
// contract's type: its rounds are this package's, and its JSON puts
// table_id and names right after the id.
type Game struct {
	ID          string           `json:"id"`
	TableID     string           `json:"table_id,omitempty"` // the authority's table id, bound into every commitment
	Names       []string         `json:"names,omitempty"`    // the players' names by seat
	Rules       replay.GameRules `json:"rules"`
	StartScores [4]int           `json:"start_scores"`
	Rounds      []Round          `json:"rounds"`
	FinalScores *[4]int          `json:"final_scores,omitempty"`
	Partial     bool             `json:"partial,omitempty"` // the game has not ended: only its finished rounds
	// The table seed's derivation (package fair), all hex: the commitment
	// to the server seed published when the table was created, the server
	// seed (revealed once the game is over) and each seat's entropy.
	SeedCommitment string   `json:"seed_commitment,omitempty"`
	ServerSeed     string   `json:"server_seed,omitempty"`
	Entropy        []string `json:"entropy,omitempty"`
}

// Round is one round: the replay contract's (its JSON fields come first)
// with the authority's extensions.
type Round struct {
	replay.Round
	// WallSeed is the round's wall seed and Commitment the commitment
	// the seats received before the deal, both hex; empty for a stacked
	// wall (a replayed record has no seeds).
	WallSeed   string `json:"wall_seed,omitempty"`
	Commitment string `json:"commitment,omitempty"`

	// Events is the round as the engine told it, from RoundStarted to
	// RoundEnded, with every seat's private draws and deals but without
	// claim offers, tenpai notes and the public copies of draws. A
	// Recorder fills it; it is not part of the JSON. The tenhou and mjai
	// writers read it.
	Events []table.Body `json:"-"`
}

// Result is a round's result.
type Result = replay.Result

// Action is one recorded action, as the replay contract writes it.
type Action = replay.Act

// ErrSyntax is what every error of Read and Decode matches.
var ErrSyntax = errors.New("record: malformed record")

// maxLine bounds one record line: a hanchan is about 30 kB.
const maxLine = 16 << 20

// Decode reads one game from its JSON.
func Decode(b []byte) (*Game, error) {
	var g Game
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value", ErrSyntax)
	}
	return &g, nil
}

// Read reads games, one JSON object per line, and calls f with each (and
// its line number, from 1) until f returns an error. Blank lines are
// skipped.
func Read(r io.Reader, f func(line int, g *Game) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), maxLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
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
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %w: %v", line+1, ErrSyntax, err)
	}
	return nil
}

// Write writes g as one line of JSON.
func Write(w io.Writer, g *Game) error {
	b, err := Marshal(g)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Marshal returns g's JSON, without a trailing newline.
func Marshal(g *Game) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		return nil, fmt.Errorf("record: encode game %q: %w", g.ID, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Contract returns g as the replayer reads it. It shares g's rounds'
// actions.
func (g *Game) Contract() *replay.Game {
	out := &replay.Game{
		ID: g.ID, Rules: g.Rules, StartScores: g.StartScores,
		FinalScores: g.FinalScores, Partial: g.Partial,
		Rounds: make([]replay.Round, len(g.Rounds)),
	}
	for i := range g.Rounds {
		out.Rounds[i] = g.Rounds[i].Round
	}
	return out
}

// FromContract returns a replay-contract game as a record without seeds
// or events. It shares c's rounds' actions.
func FromContract(c *replay.Game) *Game {
	g := &Game{
		ID: c.ID, Rules: c.Rules, StartScores: c.StartScores,
		FinalScores: c.FinalScores, Partial: c.Partial,
		Rounds: make([]Round, len(c.Rounds)),
	}
	for i := range c.Rounds {
		g.Rounds[i].Round = c.Rounds[i]
	}
	return g
}

// formatEach writes tiles in order with one suffix per tile ("2s4s1s9s"),
// as the contract writes its ordered fields.
func formatEach(ts []tile.Tile) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.String())
	}
	return b.String()
}
