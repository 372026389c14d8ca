// Package mcr is the native record of a Chinese Official (MCR) game
// played on the engine of package table/mcr: every hand's seeds,
// commitment, dealt tiles, flowers, every seat's action and the result
// with its fans and payments, and the seeds that prove the walls fair. A
// Recorder builds it from the engine's steps; Read and Write move it as
// JSON lines (rules.variant "mcr"); Verify checks one: each wall against
// its revealed seed and commitment over the 144 tiles, the seed chain
// when the server seed is revealed, and a replay through the engine; Play
// replays one through the engine in the replay contract's shape (package
// replay, tablectl replay --rules mcr).
//
// Like package record for riichi, a partial record (a game not over)
// holds only finished hands and never the server seed or the entropy.
package mcr

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	tbl "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Variant is the record's rules.variant.
const Variant = "mcr"

// Game is one game.
type Game struct {
	ID          string      `json:"id"`
	TableID     string      `json:"table_id,omitempty"` // bound into every commitment
	Names       []string    `json:"names,omitempty"`
	Rules       Rules       `json:"rules"`
	Hands       []Hand      `json:"hands"`
	FinalScores *[4]int     `json:"final_scores,omitempty"`
	TablePoints *[4]float64 `json:"table_points,omitempty"`
	Partial     bool        `json:"partial,omitempty"` // the game has not ended: only its finished hands
	// The table seed's derivation (package fair), hex: the commitment to
	// the server seed, the server seed (only once the game is over) and
	// each seat's entropy (likewise).
	SeedCommitment string   `json:"seed_commitment,omitempty"`
	ServerSeed     string   `json:"server_seed,omitempty"`
	Entropy        []string `json:"entropy,omitempty"`
}

// Rules are the rules the game was played with.
type Rules struct {
	Variant string `json:"variant"` // "mcr"
	Hands   int    `json:"hands"`   // the length of the game, 1..16
}

// Hand is one hand.
type Hand struct {
	Index      int       `json:"index"`
	Round      string    `json:"round"` // the prevalent wind: E, S, W or N
	Dealer     int       `json:"dealer"`
	Winds      string    `json:"winds"` // each seat's wind, by seat ("ESWN")
	WallSeed   string    `json:"wall_seed,omitempty"`
	Commitment string    `json:"commitment,omitempty"`
	Dealt      [4]string `json:"dealt"`   // each seat's tiles as dealt, flowers included, in order
	Flowers    [4]string `json:"flowers"` // each seat's flowers set aside, in order
	// Actions are the seats' actions in order, as "seat type [tile]":
	// "2 discard 5m", "1 chi 3m" (the run's lowest tile), "0 pass".
	Actions []string `json:"actions"`
	Result  Result   `json:"result"`
}

// Result is how a hand ended.
type Result struct {
	Kind    string `json:"kind"` // "won" or "wall_empty"
	Winner  *int   `json:"winner,omitempty"`
	From    *int   `json:"from,omitempty"` // the discarder or the robbed kong's maker; the winner for a self-draw
	Tsumo   bool   `json:"tsumo,omitempty"`
	Robbed  bool   `json:"robbed_kong,omitempty"`
	Hand    string `json:"hand,omitempty"`
	WinTile string `json:"win_tile,omitempty"`
	Flowers int    `json:"flowers,omitempty"`
	Fans    []Fan  `json:"fans,omitempty"`
	Total   int    `json:"total,omitempty"`
	Deltas  [4]int `json:"deltas"`
	Scores  [4]int `json:"scores"`
}

// Fan is one fan of a win.
type Fan struct {
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Points int    `json:"points"`
}

// ErrSyntax is what every error of Decode, Read and ParseAction matches.
var ErrSyntax = errors.New("record/mcr: malformed record")

const maxLine = 4 << 20

// Decode reads one game from its JSON.
func Decode(b []byte) (*Game, error) {
	var g Game
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&g); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSyntax, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: more than one JSON value", ErrSyntax)
	}
	if g.Rules.Variant != Variant {
		return nil, fmt.Errorf("%w: rules.variant %q, want %q", ErrSyntax, g.Rules.Variant, Variant)
	}
	return &g, nil
}

// IsMCR reports whether a JSON record line is an MCR record, by its
// rules.variant, without reading the rest.
func IsMCR(b []byte) bool {
	var head struct {
		Rules struct {
			Variant string `json:"variant"`
		} `json:"rules"`
	}
	return json.Unmarshal(b, &head) == nil && head.Rules.Variant == Variant
}

// Read reads games, one JSON object per line, and calls f with each and
// its line number until f returns an error. Blank lines are skipped.
func Read(r io.Reader, f func(line int, g *Game) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), maxLine)
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
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(g); err != nil {
		return fmt.Errorf("record/mcr: encode game %q: %w", g.ID, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// FormatAction writes a seat's action as the record does.
func FormatAction(a tbl.Action) string {
	s := strconv.Itoa(int(a.Seat)) + " " + a.Type.String()
	switch a.Type {
	case tbl.Discard, tbl.ClosedKan, tbl.AddedKan:
		s += " " + a.Tile.String()
	case tbl.Chi:
		s += " " + tile.Plain(a.Run).String()
	}
	return s
}

var actionTypes = func() map[string]tbl.ActionType {
	m := map[string]tbl.ActionType{}
	for t := tbl.Discard; t <= tbl.Pass; t++ {
		m[t.String()] = t
	}
	return m
}()

// ParseAction reads what FormatAction wrote.
func ParseAction(s string) (tbl.Action, error) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f) > 3 {
		return tbl.Action{}, fmt.Errorf("%w: action %q", ErrSyntax, s)
	}
	seat, err := strconv.Atoi(f[0])
	if err != nil || seat < 0 || seat >= tbl.NumSeats {
		return tbl.Action{}, fmt.Errorf("%w: action %q: seat", ErrSyntax, s)
	}
	typ, ok := actionTypes[f[1]]
	if !ok {
		return tbl.Action{}, fmt.Errorf("%w: action %q: type", ErrSyntax, s)
	}
	a := tbl.Action{Seat: tbl.Seat(seat), Type: typ}
	want := 2
	switch typ {
	case tbl.Discard, tbl.ClosedKan, tbl.AddedKan, tbl.Chi:
		want = 3
	}
	if len(f) != want {
		return tbl.Action{}, fmt.Errorf("%w: action %q: %d fields", ErrSyntax, s, len(f))
	}
	if want == 3 {
		x, err := tile.ParseTile(f[2])
		if err != nil || x.Red() || x.Kind().IsFlower() {
			return tbl.Action{}, fmt.Errorf("%w: action %q: tile", ErrSyntax, s)
		}
		if typ == tbl.Chi {
			a.Run = x.Kind()
		} else {
			a.Tile = x
		}
	}
	return a, nil
}

func windLetter(w tile.Wind) string { return string("ESWN"[w&3]) }

func windsStr(ws [tbl.NumSeats]tile.Wind) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString(windLetter(w))
	}
	return b.String()
}

func inOrder(ts []tile.Tile) string {
	if len(ts) == 0 {
		return ""
	}
	return tile.FormatInOrder(ts)
}
