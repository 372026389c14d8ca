package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

var update = flag.Bool("update", false, "rewrite the golden answers of testdata/judge")

func runJudgeOn(t *testing.T, input string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run([]string{"judge"}, strings.NewReader(input), &out, &errOut); err != nil {
		t.Fatalf("tablectl judge: %v (stderr %q)", err, errOut.String())
	}
	return out.String()
}

// TestJudgeLines checks answers worked out by hand, one line at a time.
func TestJudgeLines(t *testing.T) {
	tests := []struct{ in, want string }{
		// Riichi, pinfu and two dora (4p points at 5p).
		{`{"id": "c1", "hand": "23m456m234p678s55p", "win_tile": "1m", "riichi": true, "seat_wind": "S", "dora_indicators": "4p"}`,
			`{"id":"c1","win":true,"han":4,"fu":30,"yakuman":0,"yaku":[{"name":"riichi","han":1},{"name":"pinfu","han":1},{"name":"dora","han":2}],"limit":"none","points":{"ron":7700},"total":7700}`},
		// Non-dealer tsumo, 2 han 20 fu: 700 from the dealer, 400 each,
		// plus a honba (100 each) and a riichi stick.
		{`{"id": "p1", "hand": "23m456m234p678s99s", "win_tile": "4m", "tsumo": true, "seat_wind": "W", "honba": 1, "riichi_sticks": 1}`,
			`{"id":"p1","win":true,"han":2,"fu":20,"yakuman":0,"yaku":[{"name":"menzen_tsumo","han":1},{"name":"pinfu","han":1}],"limit":"none","points":{"tsumo_dealer":800,"tsumo_non_dealer":500},"total":2800}`},
		// The dealer's tsumo (seat_wind defaults to E): 700 from each.
		{`{"id": "p2", "hand": "23m456m234p678s99s", "win_tile": "4m", "tsumo": true}`,
			`{"id":"p2","win":true,"han":2,"fu":20,"yakuman":0,"yaku":[{"name":"menzen_tsumo","han":1},{"name":"pinfu","han":1}],"limit":"none","points":{"tsumo_non_dealer":700},"total":2100}`},
		// Double wind for the East seat in the East round, a dealer ron.
		{`{"id": "w1", "hand": "123m456p789s1s", "melds": [{"type": "pon", "tiles": "111z"}], "win_tile": "1s"}`,
			`{"id":"w1","win":true,"han":2,"fu":30,"yakuman":0,"yaku":[{"name":"yakuhai_seat_wind","han":1},{"name":"yakuhai_round_wind","han":1}],"limit":"none","points":{"ron":2900},"total":2900}`},
		// A closed kan keeps the hand closed: riichi and the round wind,
		// 20 + 10 + 32 (closed kan of an honour) = 62 -> 70; 2 han 70 fu:
		// 1120 x 4 = 4480 -> 4500.
		{`{"id": "k1", "hand": "23m456m678s99s", "melds": [{"type": "kan", "tiles": "1111z", "open": false}], "win_tile": "1m", "riichi": true, "seat_wind": "S"}`,
			`{"id":"k1","win":true,"han":2,"fu":70,"yakuman":0,"yaku":[{"name":"riichi","han":1},{"name":"yakuhai_round_wind","han":1}],"limit":"none","points":{"ron":4500},"total":4500}`},
		// An open kan of West on a rinshan tsumo: 20 + 2 + 16 = 38 -> 40.
		{`{"id": "k2", "hand": "23m456m678s99s", "melds": [{"type": "kan", "tiles": "3333z"}], "win_tile": "1m", "tsumo": true, "rinshan": true, "seat_wind": "S"}`,
			`{"id":"k2","win":true,"han":1,"fu":40,"yakuman":0,"yaku":[{"name":"rinshan","han":1}],"limit":"none","points":{"tsumo_dealer":700,"tsumo_non_dealer":400},"total":1500}`},
		{`{"id": "k3", "hand": "23m456m678s9s", "melds": [{"type": "kan", "tiles": "3333z", "open": false}], "win_tile": "9s", "seat_wind": "S"}`,
			`{"id":"k3","error":"hand has 9 tiles: with 1 meld and a win_tile it needs 10"}`},
		// Yakuman: suuankou tanki, double by default.
		{`{"id": "y1", "hand": "111m222p333s444z5z", "win_tile": "5z", "seat_wind": "S"}`,
			`{"id":"y1","win":true,"han":26,"fu":0,"yakuman":2,"yaku":[{"name":"suuankou_tanki","han":26}],"limit":"yakuman","points":{"ron":64000},"total":64000}`},
		{`{"id": "y2", "hand": "19m19p19s1234567z", "win_tile": "7z", "tsumo": true, "tenhou": true}`,
			`{"id":"y2","win":true,"han":39,"fu":0,"yakuman":3,"yaku":[{"name":"kokushi_13","han":26},{"name":"tenhou","han":13}],"limit":"yakuman","points":{"tsumo_non_dealer":48000},"total":144000}`},
		// Counted yakuman: 15 han.
		{`{"id": "z1", "hand": "1122335678999m", "win_tile": "4m", "tsumo": true, "riichi": true, "seat_wind": "N", "dora_indicators": "8m"}`,
			`{"id":"z1","win":true,"han":15,"fu":20,"yakuman":0,"yaku":[{"name":"riichi","han":1},{"name":"menzen_tsumo","han":1},{"name":"pinfu","han":1},{"name":"iipeikou","han":1},{"name":"ittsu","han":2},{"name":"chinitsu","han":6},{"name":"dora","han":3}],"limit":"kazoe_yakuman","points":{"tsumo_dealer":16000,"tsumo_non_dealer":8000},"total":32000}`},
		// double_riichi implies riichi: ura counts.
		{`{"id": "u1", "hand": "23m456m234p678s99s", "win_tile": "1m", "double_riichi": true, "seat_wind": "S", "ura_indicators": "8s"}`,
			`{"id":"u1","win":true,"han":5,"fu":30,"yakuman":0,"yaku":[{"name":"double_riichi","han":2},{"name":"pinfu","han":1},{"name":"ura_dora","han":2}],"limit":"mangan","points":{"ron":8000},"total":8000}`},
		{`{"id": "n1", "hand": "23m456m678s99s", "melds": [{"type": "chi", "tiles": "342p"}], "win_tile": "1m", "dora_indicators": "1m"}`,
			`{"id":"n1","win":false,"reason":"no_yaku"}`},
		{`{"id": "n2", "hand": "23m456m234p678s99s", "win_tile": "5m"}`,
			`{"id":"n2","win":false,"reason":"not_complete"}`},

		// Tenpai questions.
		{`{"id": "t1", "hand": "23m456m234p678s99s"}`, `{"id":"t1","win":false,"shanten":0,"waits":"147m"}`},
		{`{"id": "t2", "hand": "1112345678999m"}`, `{"id":"t2","win":false,"shanten":0,"waits":"123456789m"}`},
		{`{"id": "t3", "hand": "1111m"}`, `{"id":"t3","error":"hand has 4 tiles: with no meld it needs 13 (or 14)"}`},
		{`{"id": "t4", "hand": "1111m", "melds": [{"type":"pon","tiles":"222z"},{"type":"pon","tiles":"333z"},{"type":"chi","tiles":"789p"}]}`,
			`{"id":"t4","win":false,"shanten":0,"waits":"1m"}`},
		{`{"id": "t5", "hand": "147m258p369s1234z"}`, `{"id":"t5","win":false,"shanten":6,"waits":""}`},
		{`{"id": "t6", "hand": "123m456p789s11222z"}`, `{"id":"t6","win":false,"shanten":-1,"waits":""}`},

		// Errors.
		{``, `{"id":null,"error":"empty line"}`},
		{`   `, `{"id":null,"error":"empty line"}`},
		{`{"id": "e1", "hand": "23m456m234p678s99x", "win_tile": "1m"}`,
			`{"id":"e1","error":"hand: tile: bad notation \"23m456m234p678s99x\": 'x' at position 17: expected a digit or a suit letter m, p, s, z, f"}`},
		{`{"id": "e2", "hand": "23m456m234p678s99s", "win_tile": "1m", "seat_wind": "east"}`,
			`{"id":"e2","error":"seat_wind: want E, S, W or N, have \"east\""}`},
		{`{"id": "e3", "hand": "23m456m234p678s99s", "win_tile": "1m", "round_wind": "X"}`,
			`{"id":"e3","error":"round_wind: want E, S, W or N, have \"X\""}`},
		{`{"id": "e4", "hand": "23m456m234p678s99s", "win_tile": "1m", "honba": "2"}`,
			`{"id":"e4","error":"field \"honba\": want an integer, have string"}`},
		{`{"id": "e5", "hand": "23m456m234p678s99s", "win_tile": "1m", "tsumo": 1}`,
			`{"id":"e5","error":"field \"tsumo\": want a boolean, have number"}`},
		{`{"id": "e7", "hand": "23m456m234p678s99s", "win_tile": "1m", "rules": "sichuan"}`,
			`{"id":"e7","error":"missing_suit: required for sichuan (m, p or s)"}`},
		{`{"id": "e7b", "hand": "23m456m234p678s99s", "win_tile": "1m", "rules": "chinese"}`,
			`{"id":"e7b","error":"rules \"chinese\" are not supported yet: only \"classical\", \"mcr\", \"riichi\" and \"sichuan\" are"}`},
		{`{"id": "e8", "hand": "23m456m234p678s99s", "win_tile": "1m", "rules": "poker"}`,
			`{"id":"e8","error":"unknown rules \"poker\": only \"classical\", \"mcr\", \"riichi\" and \"sichuan\" are supported"}`},
		// Sichuan: a win, a refusal, a tenpai question (more in testdata).
		{`{"id": "s1", "rules": "sichuan", "missing_suit": "s", "hand": "1111m2233m4455m6m", "win_tile": "6m", "fan_cap": 4}`,
			`{"id":"s1","win":true,"fan":4,"fans":[{"name":"gen","fan":1},{"name":"qing_yi_se","fan":2},{"name":"qi_dui","fan":2}],"hand_value":16}`},
		{`{"id": "s2", "rules": "sichuan", "missing_suit": "m", "hand": "123m456p789p234s5s", "win_tile": "5s"}`,
			`{"id":"s2","win":false,"reason":"missing_suit"}`},
		{`{"id": "s3", "rules": "sichuan", "missing_suit": "p", "hand": "123m456m789m234s5p"}`,
			`{"id":"s3","win":false,"shanten":1,"waits":""}`},
		{`{"id": "e9", "hand": "1111m456m234p678s9s", "win_tile": "1m"}`,
			`{"id":"e9","error":"hand has 14 tiles: with no meld and a win_tile it needs 13"}`},
		{`{"id": "e10", "hand": "1111m5m234p678s99s", "win_tile": "1m"}`,
			`{"id":"e10","error":"5 copies of 1m among hand, melds and win_tile: there are 4"}`},
		{`{"id": "e11", "hand": "23m456m678s99s", "melds": [{"type": "pon", "tiles": "999s"}], "win_tile": "1m"}`,
			`{"id":"e11","error":"5 copies of 9s among hand, melds and win_tile: there are 4"}`},
		{`{"id": "e12", "hand": "23m406m234p678s99s", "win_tile": "0m"}`,
			`{"id":"e12","error":"2 red fives 0m: there is one"}`},
		{`{"id": "e13", "hand": "23m456m678s99s", "melds": [{"type": "chi", "tiles": "246p"}], "win_tile": "1m"}`,
			`{"id":"e13","error":"meld 1: chi \"246p\" is not a run of one suit"}`},
		{`{"id": "e14", "hand": "23m456m678s99s", "melds": [{"type": "chi", "tiles": "123z"}], "win_tile": "1m"}`,
			`{"id":"e14","error":"meld 1: chi \"123z\" is not a run of one suit"}`},
		{`{"id": "e15", "hand": "23m456m678s99s", "melds": [{"type": "chi", "tiles": "891p"}], "win_tile": "1m"}`,
			`{"id":"e15","error":"meld 1: chi \"891p\" is not a run of one suit"}`},
		{`{"id": "e16", "hand": "23m456m678s99s", "melds": [{"type": "pon", "tiles": "223p"}], "win_tile": "1m"}`,
			`{"id":"e16","error":"meld 1: pon \"223p\" is not 3 of a kind"}`},
		{`{"id": "e17", "hand": "23m456m678s99s", "melds": [{"type": "kan", "tiles": "222p"}], "win_tile": "1m"}`,
			`{"id":"e17","error":"meld 1: kan \"222p\" has 3 tiles, want 4"}`},
		{`{"id": "e18", "hand": "23m456m678s99s", "melds": [{"type": "pon", "tiles": "222p", "open": false}], "win_tile": "1m"}`,
			`{"id":"e18","error":"meld 1: a pon is always open: only a kan can be closed"}`},
		{`{"id": "e19", "hand": "23m456m678s99s", "melds": [{"type": "ankan", "tiles": "2222p"}], "win_tile": "1m"}`,
			`{"id":"e19","error":"meld 1: unknown meld type \"ankan\": want chi, pon or kan"}`},
		{`{"id": "e20", "hand": "23m456m678s99s", "melds": [{"type": "chi", "tiles": "234p"}], "win_tile": "1m", "riichi": true}`,
			`{"id":"e20","error":"judge: impossible situation: riichi needs a closed hand"}`},
		{`{"id": "e21", "hand": "23m456m234p678s99s", "win_tile": "1m", "ippatsu": true}`,
			`{"id":"e21","error":"judge: impossible situation: ippatsu needs riichi"}`},
		{`{"id": "e22", "hand": "23m456m234p678s99s", "win_tile": "1m", "tenhou": true, "tsumo": true, "seat_wind": "S"}`,
			`{"id":"e22","error":"judge: impossible situation: tenhou is the dealer's tsumo with no call"}`},
		{`{"id": "e23", "hand": "23m456m234p678s99s", "win_tile": "1m", "honba": -1}`,
			`{"id":"e23","error":"honba and riichi_sticks cannot be negative"}`},
		// Counts so large that the payments would overflow.
		{`{"id": "e23b", "hand": "23m456m234p678s99s", "win_tile": "1m", "honba": 9000000000000000000}`,
			`{"id":"e23b","error":"honba and riichi_sticks cannot exceed 100000"}`},
		{`{"id": "e23c", "hand": "23m456m234p678s99s", "win_tile": "1m", "riichi_sticks": 3000000}`,
			`{"id":"e23c","error":"honba and riichi_sticks cannot exceed 100000"}`},
		{`{"id": "e24", "win_tile": "1m"}`, `{"id":"e24","error":"missing hand"}`},
		{`{"id": "e25", "hand": "23m456m234p678s99s", "win_tile": "1m2m"}`, `{"id":"e25","error":"win_tile: want one tile, have 2"}`},
		{`{"id": "e26", "hand": "23m456m234p678s9s1f", "win_tile": "9s"}`, `{"id":"e26","error":"hand: 1f: riichi has no flowers"}`},
		{`{"id": "e27", "hand": "23m456m234p678s99s", "win_tile": "1m", "dora_indicators": "8z"}`,
			`{"id":"e27","error":"dora_indicators: tile: bad notation \"8z\": '8' at position 0: no tile 8z"}`},
		{`{"id": 7, "hand": "23m456m234p678s99s", "win_tile": "1m", "tsumo": true, "houtei": true}`,
			`{"id":7,"error":"judge: impossible situation: houtei and chankan are ron wins"}`},
		{`{"id": "e29" "hand": "1m"}`, `{"id":null,"error":"bad JSON at byte 14: invalid character '\"' after object key:value pair"}`},
		{`[1, 2]`, `{"id":null,"error":"a question must be a JSON object, have array"}`},
		{`{"id": "e31"} {"id": "e32"}`, `{"id":"e31","error":"more than one JSON value on the line"}`},
		{`{"id": "e33", "hand": "1m", "melds": [{"type":"pon","tiles":"111z"},{"type":"pon","tiles":"222z"},{"type":"pon","tiles":"333z"},{"type":"pon","tiles":"444z"},{"type":"pon","tiles":"555z"}]}`,
			`{"id":"e33","error":"5 melds: a hand has at most 4"}`},
	}
	for _, tt := range tests {
		got := strings.TrimSuffix(runJudgeOn(t, tt.in+"\n"), "\n")
		if got != tt.want {
			t.Errorf("judge(%s)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestJudgeGolden runs each questions file of testdata/judge through the
// command as one batch and compares with its answers file (go test -update
// rewrites them, to be reviewed as a diff): questions.jsonl for riichi,
// sichuan_questions.jsonl for Sichuan, mcr_questions.jsonl for MCR,
// classical_questions.jsonl for the classical rules.
func TestJudgeGolden(t *testing.T) {
	for _, set := range judgeGoldenSets {
		t.Run(set.questions, func(t *testing.T) { judgeGolden(t, set.questions, set.answers) })
	}
}

// judgeGoldenSets are the golden files of testdata/judge.
var judgeGoldenSets = []struct{ questions, answers string }{
	{"questions.jsonl", "answers.jsonl"},
	{"sichuan_questions.jsonl", "sichuan_answers.jsonl"},
	{"mcr_questions.jsonl", "mcr_answers.jsonl"},
	{"classical_questions.jsonl", "classical_answers.jsonl"},
}

func judgeGolden(t *testing.T, questions, answers string) {
	in, err := os.ReadFile(filepath.Join("testdata", "judge", questions))
	if err != nil {
		t.Fatal(err)
	}
	got := runJudgeOn(t, string(in))
	path := filepath.Join("testdata", "judge", answers)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	inLines := strings.Split(strings.TrimSuffix(string(in), "\n"), "\n")
	gotLines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	wantLines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
	if len(gotLines) != len(inLines) {
		t.Fatalf("%d answers to %d questions", len(gotLines), len(inLines))
	}
	for i := range gotLines {
		if i >= len(wantLines) || gotLines[i] != wantLines[i] {
			w := "(none)"
			if i < len(wantLines) {
				w = wantLines[i]
			}
			t.Errorf("line %d: %s\n got %s\nwant %s", i+1, inLines[i], gotLines[i], w)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(gotLines[i]), &v); err != nil {
			t.Errorf("line %d: answer is not JSON: %v", i+1, err)
		}
	}
}

// TestJudgeStream checks the run as a whole: answers in order, one per line,
// a last line without a newline, CRLF line ends.
func TestJudgeStream(t *testing.T) {
	in := "{\"id\":\"a\",\"hand\":\"1m\",\"melds\":[{\"type\":\"pon\",\"tiles\":\"111z\"},{\"type\":\"pon\",\"tiles\":\"222z\"},{\"type\":\"pon\",\"tiles\":\"333z\"},{\"type\":\"pon\",\"tiles\":\"444z\"}]}\r\n" +
		"garbage\n" +
		"{\"id\":\"c\",\"hand\":\"1m\",\"melds\":[{\"type\":\"pon\",\"tiles\":\"111z\"},{\"type\":\"pon\",\"tiles\":\"222z\"},{\"type\":\"pon\",\"tiles\":\"333z\"},{\"type\":\"pon\",\"tiles\":\"444z\"}],\"win_tile\":\"1m\",\"seat_wind\":\"S\"}"
	want := `{"id":"a","win":false,"shanten":0,"waits":"1m"}` + "\n" +
		`{"id":null,"error":"bad JSON at byte 1: invalid character 'g' looking for beginning of value"}` + "\n" +
		`{"id":"c","win":true,"han":26,"fu":0,"yakuman":2,"yaku":[{"name":"daisuushii","han":26}],"limit":"yakuman","points":{"ron":64000},"total":64000}` + "\n"
	if got := runJudgeOn(t, in); got != want {
		t.Errorf("judge stream:\n got %s\nwant %s", got, want)
	}
}

func TestJudgeReadError(t *testing.T) {
	var out bytes.Buffer
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`{"id":"a","hand":"1m","melds":[]}`+"\n"), iotest.ErrReader(boom))
	err := run([]string{"judge"}, r, &out, io.Discard)
	if !errors.Is(err, boom) {
		t.Errorf("judge on a failing stdin = %v, want %v", err, boom)
	}
	if !strings.Contains(out.String(), `"id":"a"`) {
		t.Errorf("judge on a failing stdin wrote %q, want the first answer", out.String())
	}
}

func TestJudgeUsage(t *testing.T) {
	if err := run([]string{"judge", "extra"}, strings.NewReader(""), io.Discard, io.Discard); !errors.Is(err, errUsage) {
		t.Errorf("judge extra = %v, want errUsage", err)
	}
}

// FuzzJudgeLine feeds any line to the command: exactly one JSON object
// comes back, never a panic.
func FuzzJudgeLine(f *testing.F) {
	f.Add(`{"id": "c1", "hand": "23m456m234p678s55p", "win_tile": "1m", "riichi": true}`)
	f.Add(`{"id": "t1", "hand": "23m456m234p678s99s"}`)
	f.Add(`{"id": "k", "hand": "1m", "melds": [{"type": "kan", "tiles": "1111z", "open": false}]}`)
	f.Add(`{"id": 5, "hand": "0m0p0s", "win_tile": "0m"}`)
	f.Add(`{"id": "s", "rules": "sichuan", "missing_suit": "p", "hand": "1111m2233m4455m6m", "win_tile": "6m", "fan_cap": 4}`)
	f.Add(`{"id": "m", "rules": "mcr", "hand": "147m258s369p1z", "win_tile": "1z", "melds": [{"type": "chi", "tiles": "789m"}], "tsumo": true, "flowers": 2}`)
	f.Add(`{"id": "m2", "rules": "mcr", "hand": "147m258s369p1234z"}`)
	f.Add(`{"id": "s", "rules": "sichuan", "missing_suit": "s", "hand": "1s", "melds": [{"type": "kan", "tiles": "2222m"}], "tsumo": true, "rinshan": true}`)
	f.Add(`{"id": "c", "rules": "classical", "hand": "12345678m11234z"}`)
	f.Add(`{"id": "c", "rules": "classical", "hand": "1z", "melds": [{"type": "kan", "tiles": "5555z", "open": false}, {"type": "pon", "tiles": "666z"}, {"type": "chi", "tiles": "123m"}, {"type": "pon", "tiles": "111m"}], "win_tile": "1z", "tsumo": true, "rinshan": true, "bonus_tiles": "1f5f", "limit": 500, "original_call": true}`)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		out := judgeLine([]byte(line))
		if bytes.Count(out, []byte("\n")) != 1 || out[len(out)-1] != '\n' {
			t.Fatalf("judge(%q) = %q, want one line", line, out)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("judge(%q) = %q: %v", line, out, err)
		}
		if _, ok := v["id"]; !ok {
			t.Fatalf("judge(%q) = %q: no id", line, out)
		}
	})
}
