package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"reflect"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

func init() {
	commands["judge"] = command{
		summary: "score hands and answer tenpai questions: JSON lines on stdin (../shared/contracts/judge-jsonl.md)",
		run:     runJudge,
	}
}

// runJudge answers one JSON object per line of stdin with one JSON object
// per line of stdout, in order. A bad line gets an error object and the run
// goes on; only failing to read stdin or write stdout stops it.
func runJudge(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("judge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: tablectl judge < questions.jsonl > answers.jsonl")
		fmt.Fprintln(stderr, "Each line is a hand to score (with win_tile) or a tenpai question (without);")
		fmt.Fprintln(stderr, "see ../shared/contracts/judge-jsonl.md for the fields. A tenpai question")
		fmt.Fprintln(stderr, "about a hand of winning size (14 tiles less 3 per meld) answers waits \"\".")
	}
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

// judgeInput is one question of the contract.
type judgeInput struct {
	ID             json.RawMessage `json:"id"`
	Rules          *string         `json:"rules"`
	Hand           *string         `json:"hand"`
	WinTile        *string         `json:"win_tile"`
	Melds          []judgeMeld     `json:"melds"`
	Tsumo          bool            `json:"tsumo"`
	Riichi         bool            `json:"riichi"`
	DoubleRiichi   bool            `json:"double_riichi"`
	Ippatsu        bool            `json:"ippatsu"`
	Rinshan        bool            `json:"rinshan"`
	Chankan        bool            `json:"chankan"`
	Haitei         bool            `json:"haitei"`
	Houtei         bool            `json:"houtei"`
	Tenhou         bool            `json:"tenhou"`
	Chiihou        bool            `json:"chiihou"`
	SeatWind       *string         `json:"seat_wind"`
	RoundWind      *string         `json:"round_wind"`
	DoraIndicators *string         `json:"dora_indicators"`
	UraIndicators  *string         `json:"ura_indicators"`
	Honba          int             `json:"honba"`
	RiichiSticks   int             `json:"riichi_sticks"`
}

type judgeMeld struct {
	Type  string `json:"type"`
	Tiles string `json:"tiles"`
	Open  *bool  `json:"open"`
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
		return in, fmt.Errorf("field %q: want %s, have %s", typeErr.Field, jsonKind(typeErr.Type), typeErr.Value)
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

// answer validates a question and answers it.
func answer(in judgeInput) (any, error) {
	if in.Rules != nil {
		switch r := *in.Rules; r {
		case "riichi":
		case "sichuan", "chinese", "classical":
			return nil, fmt.Errorf("rules %q are not supported yet: only \"riichi\" is", r)
		default:
			return nil, fmt.Errorf("unknown rules %q: only \"riichi\" is supported", r)
		}
	}
	if in.Hand == nil {
		return nil, errors.New("missing hand")
	}
	hand, err := parseTiles("hand", *in.Hand)
	if err != nil {
		return nil, err
	}
	h := judge.Hand{Concealed: hand}
	if len(in.Melds) > 4 {
		return nil, fmt.Errorf("%d melds: a hand has at most 4", len(in.Melds))
	}
	for i, jm := range in.Melds {
		m, err := parseMeld(jm)
		if err != nil {
			return nil, fmt.Errorf("meld %d: %w", i+1, err)
		}
		h.Melds = append(h.Melds, m)
	}
	var win tile.Tile
	if in.WinTile != nil {
		ts, err := parseTiles("win_tile", *in.WinTile)
		if err != nil {
			return nil, err
		}
		if len(ts) != 1 {
			return nil, fmt.Errorf("win_tile: want one tile, have %d", len(ts))
		}
		win = ts[0]
	}

	// Sizes: 13 tiles less 3 per meld beside a winning tile; a tenpai
	// question may also ask about a hand of winning size.
	size := 13 - 3*len(h.Melds)
	switch {
	case in.WinTile != nil && len(hand) != size:
		return nil, fmt.Errorf("hand has %d tiles: with %s and a win_tile it needs %d", len(hand), meldCount(len(h.Melds)), size)
	case in.WinTile == nil && len(hand) != size && len(hand) != size+1:
		return nil, fmt.Errorf("hand has %d tiles: with %s it needs %d (or %d)", len(hand), meldCount(len(h.Melds)), size, size+1)
	}
	all := append([]tile.Tile(nil), hand...)
	for _, m := range h.Melds {
		all = append(all, m.Tiles[:m.Len()]...)
	}
	if in.WinTile != nil {
		all = append(all, win)
	}
	if err := checkCopies(all); err != nil {
		return nil, err
	}

	if in.WinTile == nil {
		c := tile.CountsOf(hand)
		out := judgeTenpaiOut{ID: in.ID, Shanten: judge.Shanten(&c)}
		if len(hand) == size {
			out.Waits = judge.Waits(&c).String()
		}
		return out, nil
	}

	s := judge.Situation{
		Tsumo:        in.Tsumo,
		Riichi:       in.Riichi || in.DoubleRiichi,
		DoubleRiichi: in.DoubleRiichi,
		Ippatsu:      in.Ippatsu,
		Rinshan:      in.Rinshan,
		Chankan:      in.Chankan,
		Haitei:       in.Haitei,
		Houtei:       in.Houtei,
		Tenhou:       in.Tenhou,
		Chiihou:      in.Chiihou,
		Honba:        in.Honba,
		RiichiSticks: in.RiichiSticks,
	}
	if s.SeatWind, err = parseWind("seat_wind", in.SeatWind); err != nil {
		return nil, err
	}
	if s.RoundWind, err = parseWind("round_wind", in.RoundWind); err != nil {
		return nil, err
	}
	if in.DoraIndicators != nil {
		if s.DoraIndicators, err = parseTiles("dora_indicators", *in.DoraIndicators); err != nil {
			return nil, err
		}
	}
	if in.UraIndicators != nil {
		if s.UraIndicators, err = parseTiles("ura_indicators", *in.UraIndicators); err != nil {
			return nil, err
		}
	}
	if s.Honba < 0 || s.RiichiSticks < 0 {
		return nil, errors.New("honba and riichi_sticks cannot be negative")
	}
	if err := judge.CheckSituation(&h, &s); err != nil {
		return nil, err
	}

	r := judge.Score(&h, win, &s, &judge.Default)
	if !r.Win {
		return judgeNoWinOut{ID: in.ID, Reason: r.Reason.String()}, nil
	}
	out := judgeWinOut{ID: in.ID, Win: true, Han: r.Han, Fu: r.Fu, Yakuman: r.Yakuman, Limit: r.Limit.String(), Total: r.Total}
	for _, y := range r.Yaku() {
		out.Yaku = append(out.Yaku, judgeYakuOut{Name: y.Yaku.String(), Han: y.Han})
	}
	switch {
	case !s.Tsumo:
		out.Points.Ron = &r.Pay.Ron
	case s.Dealer():
		out.Points.TsumoNonDealer = &r.Pay.TsumoNonDealer
	default:
		out.Points.TsumoDealer = &r.Pay.TsumoDealer
		out.Points.TsumoNonDealer = &r.Pay.TsumoNonDealer
	}
	return out, nil
}

func meldCount(n int) string {
	switch n {
	case 0:
		return "no meld"
	case 1:
		return "1 meld"
	}
	return fmt.Sprintf("%d melds", n)
}

// parseTiles reads riichi tiles: MPSZ notation without flowers.
func parseTiles(field, s string) ([]tile.Tile, error) {
	ts, err := tile.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	for _, t := range ts {
		if t.Kind().IsFlower() {
			return nil, fmt.Errorf("%s: %v: riichi has no flowers", field, t)
		}
	}
	return ts, nil
}

// parseMeld reads a meld: chi a run, pon a triplet, kan four of a kind;
// open unless a kan says "open": false.
func parseMeld(jm judgeMeld) (judge.Meld, error) {
	var m judge.Meld
	ts, err := parseTiles("tiles", jm.Tiles)
	if err != nil {
		return m, err
	}
	open := jm.Open == nil || *jm.Open
	switch jm.Type {
	case "chi":
		m.Type = judge.Chi
	case "pon":
		m.Type = judge.Pon
	case "kan":
		m.Type = judge.OpenKan
		if !open {
			m.Type = judge.ClosedKan
		}
	default:
		return m, fmt.Errorf("unknown meld type %q: want chi, pon or kan", jm.Type)
	}
	if !open && !m.IsKan() {
		return m, fmt.Errorf("a %s is always open: only a kan can be closed", jm.Type)
	}
	if len(ts) != m.Len() {
		return m, fmt.Errorf("%s %q has %d tiles, want %d", jm.Type, jm.Tiles, len(ts), m.Len())
	}
	tile.Sort(ts)
	k := ts[0].Kind()
	for i, t := range ts {
		want := k
		if m.Type == judge.Chi {
			want = k + tile.Kind(i)
		}
		if t.Kind() != want || (m.Type == judge.Chi && (k.IsHonor() || k.Number() > 7)) {
			if m.Type == judge.Chi {
				return m, fmt.Errorf("chi %q is not a run of one suit", jm.Tiles)
			}
			return m, fmt.Errorf("%s %q is not %d of a kind", jm.Type, jm.Tiles, m.Len())
		}
	}
	copy(m.Tiles[:], ts)
	return m, nil
}

// checkCopies rejects more than four tiles of a kind or two red fives of a
// suit among the tiles of the hand.
func checkCopies(ts []tile.Tile) error {
	var c tile.Counts
	var red [3]int
	for _, t := range ts {
		c[t.Kind()]++
		if t.Red() {
			red[t.Kind().Suit()]++
		}
	}
	for k, n := range c {
		if n > 4 {
			return fmt.Errorf("%d copies of %v among hand, melds and win_tile: there are 4", n, tile.Kind(k))
		}
	}
	for s, n := range red {
		if n > 1 {
			return fmt.Errorf("%d red fives 0%c: there is one", n, tile.Suit(s).Letter())
		}
	}
	return nil
}

// parseWind reads a wind word, East when absent.
func parseWind(field string, s *string) (tile.Wind, error) {
	if s == nil {
		return tile.WindEast, nil
	}
	w, err := tile.ParseWind(*s)
	if err != nil {
		return 0, fmt.Errorf("%s: want E, S, W or N, have %q", field, *s)
	}
	return w, nil
}
