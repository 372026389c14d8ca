package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func runDoudizhuOn(t *testing.T, input string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run([]string{"doudizhu"}, strings.NewReader(input), &out, io.Discard); err != nil {
		t.Fatalf("doudizhu: %v", err)
	}
	return out.String()
}

// TestDoudizhuLines checks single answers against the contract's shapes.
func TestDoudizhuLines(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"id": "c1", "kind": "classify", "play": "33344455"}`, `{"id":"c1","type":"airplane_single_wings","rank":"3","len":2}`},
		{`{"id": "l1", "kind": "legal", "hand": "3345577889TTJQKAX", "prev": "34567"}`, `{"id":"l1","legal":["789TJ","89TJQ","9TJQK","TJQKA"],"can_pass":true}`},
		{`{"id":"r","kind":"classify","play":"DX"}`, `{"id":"r","type":"rocket","len":1}`},
		{`{"id":"i","kind":"classify","play":"33334444"}`, `{"id":"i","type":"invalid","len":1}`},
		{`{"id":"s","kind":"classify","play":"AKQJT"}`, `{"id":"s","type":"straight","rank":"T","len":5}`},
		{`{"id":"n","kind":"classify","play":"KA2JQ"}`, `{"id":"n","type":"invalid","len":1}`},
		{`{"id":"k","kind":"classify","play":"X333"}`, `{"id":"k","type":"trio_single","rank":"3","len":1}`},
		{`{"id":"f","kind":"classify","play":"555577"}`, `{"id":"f","type":"four_two_singles","rank":"5","len":1}`},
		{`{"id":"lead","kind":"legal","hand":"3XD","prev":null}`, `{"id":"lead","legal":["3","X","D","XD"],"can_pass":false}`},
		{`{"id":"lead2","kind":"legal","hand":"443"}`, `{"id":"lead2","legal":["3","4","44"],"can_pass":false}`},
		{`{"id":"none","kind":"legal","hand":"3","prev":"4"}`, `{"id":"none","legal":[],"can_pass":true}`},
		{`{"id":"b","kind":"legal","hand":"3","prev":"33"}`, `{"id":"b","legal":[],"can_pass":true}`},
		{`{"id":"e","kind":"legal","hand":"2222","prev":"2"}`, `{"id":"e","error":"prev \"2\" and hand \"2222\" hold more cards of a rank than the deck"}`},
		{`{"id":"e","kind":"legal","hand":"3","prev":"34"}`, `{"id":"e","error":"prev \"34\" is not a play"}`},
		{`{"id":"e","kind":"classify","play":"XX"}`, `{"id":"e","error":"play: bad notation: more than 1 X in \"XX\""}`},
		{`{"id":"e","kind":"classify","play":"3s"}`, `{"id":"e","error":"play: bad notation: \"s\" is not a card (3456789TJQKA2XD)"}`},
		{`{"id":"e","kind":"legal","hand":"3","prev":5}`, `{"id":"e","error":"field \"prev\": want a string, have number"}`},
		{`{"kind":"classify","play":"3"}`, `{"id":null,"type":"single","rank":"3","len":1}`},
	}
	for _, tt := range tests {
		got := strings.TrimSuffix(runDoudizhuOn(t, tt.in+"\n"), "\n")
		if got != tt.want {
			t.Errorf("doudizhu %s\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

// TestDoudizhuGolden runs testdata/doudizhu/questions.jsonl through the
// command as one batch and compares with answers.jsonl (go test -update
// rewrites it, to be reviewed as a diff).
func TestDoudizhuGolden(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("testdata", "doudizhu", "questions.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got := runDoudizhuOn(t, string(in))
	path := filepath.Join("testdata", "doudizhu", "answers.jsonl")
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
	if len(gotLines) != len(inLines) || len(wantLines) != len(inLines) {
		t.Fatalf("%d answers (%d golden) to %d questions", len(gotLines), len(wantLines), len(inLines))
	}
	for i := range gotLines {
		if gotLines[i] != wantLines[i] {
			t.Errorf("line %d: %s\n got %s\nwant %s", i+1, inLines[i], gotLines[i], wantLines[i])
		}
	}
}

// TestDoudizhuStream: answers in order, CRLF line ends, a last line without
// a newline, bad lines answered and passed over.
func TestDoudizhuStream(t *testing.T) {
	in := "{\"id\":1,\"kind\":\"classify\",\"play\":\"3\"}\r\ngarbage\n{\"id\":3,\"kind\":\"classify\",\"play\":\"33\"}"
	want := `{"id":1,"type":"single","rank":"3","len":1}` + "\n" +
		`{"id":null,"error":"bad JSON at byte 1: invalid character 'g' looking for beginning of value"}` + "\n" +
		`{"id":3,"type":"pair","rank":"3","len":1}` + "\n"
	if got := runDoudizhuOn(t, in); got != want {
		t.Errorf("doudizhu stream:\n got %s\nwant %s", got, want)
	}
}

func TestDoudizhuReadError(t *testing.T) {
	var out bytes.Buffer
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(`{"id":"a","kind":"classify","play":"3"}`+"\n"), iotest.ErrReader(boom))
	if err := run([]string{"doudizhu"}, r, &out, io.Discard); !errors.Is(err, boom) {
		t.Errorf("doudizhu on a failing stdin = %v, want %v", err, boom)
	}
	if !strings.Contains(out.String(), `"id":"a"`) {
		t.Errorf("doudizhu on a failing stdin wrote %q, want the first answer", out.String())
	}
	if err := run([]string{"doudizhu", "extra"}, strings.NewReader(""), io.Discard, io.Discard); !errors.Is(err, errUsage) {
		t.Errorf("doudizhu extra = %v, want errUsage", err)
	}
}

// FuzzDoudizhuLine feeds any line to the command: exactly one JSON object
// with an id comes back, never a panic.
func FuzzDoudizhuLine(f *testing.F) {
	f.Add(`{"id": "c1", "kind": "classify", "play": "33344455"}`)
	f.Add(`{"id": "l1", "kind": "legal", "hand": "3345577889TTJQKAX", "prev": "34567"}`)
	f.Add(`{"id": "l2", "kind": "legal", "hand": "333444555666777XD2"}`)
	f.Add(`{"id": 5, "kind": "legal", "hand": "3333444455556666", "prev": "7777"}`)
	f.Fuzz(func(t *testing.T, line string) {
		if strings.ContainsAny(line, "\n") {
			return
		}
		var d doudizhuJudge
		out := d.line([]byte(line))
		if bytes.Count(out, []byte("\n")) != 1 || out[len(out)-1] != '\n' {
			t.Fatalf("doudizhu(%q) = %q, want one line", line, out)
		}
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("doudizhu(%q) = %q: %v", line, out, err)
		}
		if _, ok := v["id"]; !ok {
			t.Fatalf("doudizhu(%q) = %q: no id", line, out)
		}
	})
}
