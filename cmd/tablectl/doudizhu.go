package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

func init() {
	commands["doudizhu"] = command{
		summary: "judge Dou Dizhu plays: JSON lines on stdin (docs/doudizhu.md)",
		run:     runDoudizhu,
	}
}

const doudizhuUsage = `usage: tablectl doudizhu < questions.jsonl > answers.jsonl
Each line is {"id", "kind": "classify", "play"} (the type, rank and length of
a play) or {"id", "kind": "legal", "hand", "prev"} (every legal play of the
hand against prev, or leading when prev is null or absent); see
docs/doudizhu.md for the fields. One answer line per question line, in order.
`

// runDoudizhu answers one JSON object per line of stdin with one JSON object
// per line of stdout, in order, like runJudge.
func runDoudizhu(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("doudizhu", doudizhuUsage, stderr)
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return errUsage
	}
	var d doudizhuJudge
	return answerLines(stdin, stdout, d.line)
}

// answerLines writes answer(line) for every line of in, flushing whenever no
// more input is waiting, so that a caller speaking line by line gets its
// answer and a batch is written in blocks.
func answerLines(stdin io.Reader, stdout io.Writer, answer func([]byte) []byte) error {
	in := bufio.NewReaderSize(stdin, 64<<10)
	out := bufio.NewWriterSize(stdout, 64<<10)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 || err == nil {
			if _, werr := out.Write(answer(line)); werr != nil {
				return fmt.Errorf("write answers: %w", werr)
			}
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

// doudizhuInput is one question. Unknown fields are ignored: the contract
// grows only by adding fields.
type doudizhuInput struct {
	ID   json.RawMessage `json:"id"`
	Kind string          `json:"kind"`
	Play *string         `json:"play"`
	Hand *string         `json:"hand"`
	Prev *string         `json:"prev"`
}

// The answers, with their fields in the contract's order.
type (
	doudizhuClassifyOut struct {
		ID   json.RawMessage `json:"id"`
		Type string          `json:"type"`
		Rank string          `json:"rank,omitempty"`
		Len  int             `json:"len"`
	}
	doudizhuLegalOut struct {
		ID      json.RawMessage `json:"id"`
		Legal   []string        `json:"legal"`
		CanPass bool            `json:"can_pass"`
	}
)

// doudizhuJudge answers lines; it keeps the legal-play buffer between them.
type doudizhuJudge struct {
	plays []judge.Play
}

// line answers one line, newline included.
func (d *doudizhuJudge) line(line []byte) []byte {
	line = bytes.TrimRight(line, "\r\n")
	var ans any
	in, err := decodeDoudizhuInput(line)
	if err == nil {
		ans, err = d.answer(&in)
	}
	if err != nil {
		ans = judgeErrorOut{ID: in.ID, Error: err.Error()}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ans); err != nil {
		b.Reset()
		enc.Encode(judgeErrorOut{Error: "cannot write the answer: " + err.Error()})
	}
	return b.Bytes()
}

// decodeDoudizhuInput reads a line: one JSON object whose known fields have
// the right types. On an error it still returns the id when it can.
func decodeDoudizhuInput(line []byte) (doudizhuInput, error) {
	var in doudizhuInput
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
		return in, fmt.Errorf("field %q: want %s, have %s", typeErr.Field, jsonKind(typeErr.Type), typeErr.Value)
	case errors.As(err, &typeErr):
		return in, fmt.Errorf("a question must be a JSON object, have %s", typeErr.Value)
	case errors.As(err, &syntaxErr):
		return in, fmt.Errorf("bad JSON at byte %d: %v", syntaxErr.Offset, err)
	}
	return in, fmt.Errorf("bad JSON: %v", err)
}

func (d *doudizhuJudge) answer(in *doudizhuInput) (any, error) {
	switch in.Kind {
	case "classify":
		if in.Play == nil {
			return nil, errors.New(`classify needs "play"`)
		}
		c, err := parseCards("play", *in.Play)
		if err != nil {
			return nil, err
		}
		p := judge.Classify(&c)
		out := doudizhuClassifyOut{ID: in.ID, Type: p.Type.String(), Len: int(p.Len)}
		if p.Type != judge.Invalid && p.Type != judge.Rocket {
			out.Rank = p.Rank.String()
		}
		return out, nil
	case "legal":
		return d.legal(in)
	case "":
		return nil, errors.New(`"kind" is missing: want "classify" or "legal"`)
	}
	return nil, fmt.Errorf("unknown kind %q: want \"classify\" or \"legal\"", in.Kind)
}

func (d *doudizhuJudge) legal(in *doudizhuInput) (any, error) {
	if in.Hand == nil {
		return nil, errors.New(`legal needs "hand"`)
	}
	hand, err := parseCards("hand", *in.Hand)
	if err != nil {
		return nil, err
	}
	var prev *judge.Play
	// An empty prev is taken as leading, like null: no cards to beat.
	if in.Prev != nil && *in.Prev != "" {
		c, err := parseCards("prev", *in.Prev)
		if err != nil {
			return nil, err
		}
		both := hand
		both.Add(&c)
		if !both.Fits() {
			return nil, fmt.Errorf("prev %q and hand %q hold more cards of a rank than the deck", *in.Prev, *in.Hand)
		}
		p := judge.Classify(&c)
		if p.Type == judge.Invalid {
			return nil, fmt.Errorf("prev %q is not a play", *in.Prev)
		}
		prev = &p
	}
	d.plays = judge.AppendLegal(d.plays[:0], &hand, prev)
	judge.Sort(d.plays)
	out := doudizhuLegalOut{ID: in.ID, Legal: make([]string, len(d.plays)), CanPass: prev != nil}
	var b []byte
	for i := range d.plays {
		b = d.plays[i].Cards.Append(b[:0])
		out.Legal[i] = string(b)
	}
	return out, nil
}

// parseCards reads the cards of a field, naming it in the error.
func parseCards(field, s string) (card.Counts, error) {
	c, err := card.Parse(s)
	if err != nil {
		return c, fmt.Errorf("%s: %s", field, strings.TrimPrefix(err.Error(), "card: "))
	}
	return c, nil
}
