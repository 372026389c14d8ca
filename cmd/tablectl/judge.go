package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/mahjong-authority/authority/internal/judgeq"
)

func init() {
	commands["judge"] = command{
		summary: "score hands and answer tenpai questions: JSON lines on stdin (docs/judge.md)",
		run:     runJudge,
	}
}

const judgeUsage = `usage: tablectl judge < questions.jsonl > answers.jsonl
Each line is a hand to score (with win_tile) or a tenpai question (without);
see docs/judge.md for the fields. A tenpai question about a hand of winning
size (14 tiles less 3 per meld) answers waits "".
"rules": "sichuan" judges Sichuan bloody battle hands (missing_suit
required; fan, fans and hand_value out): docs/rules/sichuan-judge.md.
"rules": "mcr" judges Chinese Official hands (flowers and last_tile in;
fan_total, fan_total_without_flowers, meets_minimum and fans out):
docs/rules/mcr-fans.md.
"rules": "classical" judges classical hands (bonus_tiles, limit and
original_call in; special, limits, score and its lines out, and the
special hands fished for): docs/rules/classical-scoring.md.
`

// runJudge answers one JSON object per line of stdin with one JSON object
// per line of stdout, in order. A bad line gets an error object and the run
// goes on; only failing to read stdin or write stdout stops it.
func runJudge(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("judge", judgeUsage, stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	in := bufio.NewReaderSize(stdin, 64<<10)
	out := bufio.NewWriterSize(stdout, 64<<10)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 || err == nil {
			if _, werr := out.Write(judgeLine(line)); werr != nil {
				return fmt.Errorf("write answers: %w", werr)
			}
			// Flush when no more input is waiting, so that a caller speaking
			// line by line gets its answer, and a batch is written in blocks.
			if in.Buffered() == 0 {
				if werr := out.Flush(); werr != nil {
					return fmt.Errorf("write answers: %w", werr)
				}
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("read questions: %w", err)
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("write answers: %w", err)
	}
	return nil
}

// judgeInput is one question of the contract: its id and the question
// itself, whose checks and answer package judgeq shares with the gRPC
// JudgeService.
type judgeInput struct {
	ID json.RawMessage `json:"id"`
	judgeq.Question
}

// The answers, with their fields in the contract's order.
type (
	judgeErrorOut struct {
		ID    json.RawMessage `json:"id"`
		Error string          `json:"error"`
	}
	judgeTenpaiOut struct {
		ID      json.RawMessage `json:"id"`
		Win     bool            `json:"win"`
		Shanten int             `json:"shanten"`
		Waits   string          `json:"waits"`
	}
	judgeNoWinOut struct {
		ID     json.RawMessage `json:"id"`
		Win    bool            `json:"win"`
		Reason string          `json:"reason"`
	}
	judgeWinOut struct {
		ID      json.RawMessage `json:"id"`
		Win     bool            `json:"win"`
		Han     int             `json:"han"`
		Fu      int             `json:"fu"`
		Yakuman int             `json:"yakuman"`
		Yaku    []judgeYakuOut  `json:"yaku"`
		Limit   string          `json:"limit"`
		Points  judgePointsOut  `json:"points"`
		Total   int             `json:"total"`
	}
	judgeYakuOut struct {
		Name string `json:"name"`
		Han  int    `json:"han"`
	}
	sichuanWinOut struct {
		ID        json.RawMessage `json:"id"`
		Win       bool            `json:"win"`
		Fan       int             `json:"fan"`
		Fans      []sichuanFanOut `json:"fans"`
		HandValue int             `json:"hand_value"`
	}
	sichuanFanOut struct {
		Name string `json:"name"`
		Fan  int    `json:"fan"`
	}
	judgePointsOut struct {
		Ron            *int `json:"ron,omitempty"`
		TsumoDealer    *int `json:"tsumo_dealer,omitempty"`
		TsumoNonDealer *int `json:"tsumo_non_dealer,omitempty"`
	}
)

// judgeLine answers one line, newline included.
func judgeLine(line []byte) []byte {
	line = bytes.TrimRight(line, "\r\n")
	var ans any
	in, err := decodeJudgeInput(line)
	if err == nil {
		ans, err = answer(in)
	}
	if err != nil {
		ans = judgeErrorOut{ID: in.ID, Error: err.Error()}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ans); err != nil {
		// Only an id that is not valid JSON could get here, and decoding
		// checked it; answer without it rather than not at all.
		b.Reset()
		enc.Encode(judgeErrorOut{Error: "cannot write the answer: " + err.Error()})
	}
	return b.Bytes()
}

// decodeJudgeInput reads a line: one JSON object whose known fields have the
// right types. Unknown fields are ignored: the contract grows only by adding
// fields, so a checker written for a later version must still get answers.
// On an error it still returns the id when it can find one.
func decodeJudgeInput(line []byte) (judgeInput, error) {
	var in judgeInput
	if len(bytes.TrimSpace(line)) == 0 {
		return in, errors.New("empty line")
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	err := dec.Decode(&in)
	if err == nil && dec.More() {
		return in, errors.New("more than one JSON value on the line")
	}
	if err == nil {
		return in, nil
	}
	// Find the id for the error answer, if the line is an object at all.
	var idOnly struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &idOnly) == nil {
		in.ID = idOnly.ID
	} else {
		in.ID = nil
	}
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	switch {
	case errors.As(err, &typeErr) && typeErr.Field != "":
		// The fields are the embedded Question's: the contract's names
		// have no prefix.
		field := strings.TrimPrefix(typeErr.Field, "Question.")
		return in, fmt.Errorf("field %q: want %s, have %s", field, jsonKind(typeErr.Type), typeErr.Value)
	case errors.As(err, &typeErr):
		return in, fmt.Errorf("a question must be a JSON object, have %s", typeErr.Value)
	case errors.As(err, &syntaxErr):
		return in, fmt.Errorf("bad JSON at byte %d: %v", syntaxErr.Offset, err)
	}
	return in, fmt.Errorf("bad JSON: %v", err)
}

// jsonKind names a Go type as the JSON value it is decoded from.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.Int:
		return "an integer"
	case reflect.String:
		return "a string"
	case reflect.Slice:
		return "a list"
	case reflect.Struct:
		return "an object"
	}
	return t.String()
}

// answer answers a decoded question in the contract's shape.
func answer(in judgeInput) (any, error) {
	a, err := judgeq.Ask(&in.Question)
	if err != nil {
		return nil, err
	}
	if w := judgeTenpaiWriters[a.Rules]; a.TenpaiQuestion && w != nil {
		return w(in.ID, &a), nil
	}
	if a.TenpaiQuestion {
		return judgeTenpaiOut{ID: in.ID, Shanten: a.Shanten, Waits: a.Waits.String()}, nil
	}
	return judgeWinWriters[a.Rules](in.ID, &a), nil
}

// judgeWinWriters write the answer to a win question, by rule set: each
// rule set has its own fields.
var judgeWinWriters = map[string]func(id json.RawMessage, a *judgeq.Answer) any{
	"riichi":    riichiWinOut,
	"sichuan":   sichuanWin,
	"mcr":       mcrWin,
	"classical": classicalWin,
}

// judgeTenpaiWriters write the answer to a tenpai question for the rule
// sets that add fields to shanten and waits.
var judgeTenpaiWriters = map[string]func(id json.RawMessage, a *judgeq.Answer) any{
	"classical": classicalTenpai,
}

func riichiWinOut(id json.RawMessage, a *judgeq.Answer) any {
	r := &a.Result
	if !r.Win {
		return judgeNoWinOut{ID: id, Reason: r.Reason.String()}
	}
	out := judgeWinOut{ID: id, Win: true, Han: r.Han, Fu: r.Fu, Yakuman: r.Yakuman, Limit: r.Limit.String(), Total: r.Total,
		Points: judgePointsOut{Ron: a.Points.Ron, TsumoDealer: a.Points.TsumoDealer, TsumoNonDealer: a.Points.TsumoNonDealer}}
	for _, y := range r.Yaku() {
		out.Yaku = append(out.Yaku, judgeYakuOut{Name: y.Yaku.String(), Han: y.Han})
	}
	return out
}

func sichuanWin(id json.RawMessage, a *judgeq.Answer) any {
	r := &a.Sichuan
	if !r.Win {
		return judgeNoWinOut{ID: id, Reason: r.Reason.String()}
	}
	// A plain hand lists no fans: [], not null.
	out := sichuanWinOut{ID: id, Win: true, Fan: r.Fan, Fans: []sichuanFanOut{}, HandValue: r.Value}
	for _, l := range r.Lines() {
		out.Fans = append(out.Fans, sichuanFanOut{Name: l.Fan.String(), Fan: l.Count})
	}
	return out
}
