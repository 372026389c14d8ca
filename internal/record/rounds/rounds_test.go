package rounds_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/record/rounds"
)

type hand struct {
	Dealer  int      `json:"dealer"`
	Actions []string `json:"actions"`
	Wins    []int    `json:"wins,omitempty"`
}

func ExampleEncoded() {
	var done rounds.Encoded[hand]
	for _, h := range []hand{{Dealer: 0, Actions: []string{"0 discard 1m"}}, {Dealer: 1, Actions: []string{}, Wins: []int{2}}} {
		if err := done.Append(&h); err != nil {
			panic(err)
		}
	}
	hands, err := done.Decode()
	fmt.Println(done.Len(), hands, err)
	b, _ := json.Marshal(struct {
		Hands rounds.Encoded[hand] `json:"hands"`
	}{done})
	fmt.Println(string(b))
	// Output:
	// 2 [{0 [0 discard 1m] []} {1 [] [2]}] <nil>
	// {"hands":[{"dealer":0,"actions":["0 discard 1m"]},{"dealer":1,"actions":[],"wins":[2]}]}
}

// TestEncodedIsASlicesJSON: an Encoded marshals as the []T of its rounds
// does and reads what that marshals; Decode returns new values each time.
func TestEncodedIsASlicesJSON(t *testing.T) {
	for _, hs := range [][]hand{nil, {{Dealer: 3, Actions: []string{}}}, {{Actions: []string{"a", "b"}}, {Dealer: 2, Wins: []int{0, 1}}}} {
		var e rounds.Encoded[hand]
		for i := range hs {
			if err := e.Append(&hs[i]); err != nil {
				t.Fatal(err)
			}
		}
		got, err := json.Marshal(e)
		want, _ := json.Marshal(append([]hand{}, hs...))
		if err != nil || string(got) != string(want) {
			t.Errorf("Marshal(%v) = %s, %v; want %s", hs, got, err, want)
		}
		var back rounds.Encoded[hand]
		if err := json.Unmarshal(want, &back); err != nil || back.Len() != len(hs) {
			t.Fatalf("Unmarshal(%s) = %v, %d rounds", want, err, back.Len())
		}
		d1, err1 := back.Decode()
		d2, err2 := back.Decode()
		if err1 != nil || err2 != nil || !reflect.DeepEqual(d1, d2) || d1 == nil {
			t.Fatalf("Decode of %s: %v, %v, %v, %v", want, d1, err1, d2, err2)
		}
		if len(d1) > 0 {
			d1[0].Dealer = 9
			if d3, _ := back.Decode(); d3[0].Dealer == 9 {
				t.Fatal("Decode shares its rounds")
			}
			if last, err := back.Last(); err != nil || !reflect.DeepEqual(last, d2[len(d2)-1]) {
				t.Fatalf("Last = %v, %v; want %v", last, err, d2[len(d2)-1])
			}
		} else if _, err := back.Last(); err == nil {
			t.Fatal("Last of no round: no error")
		}
	}
}

// TestEncodedRefuses: rounds that do not decode as T do not unmarshal,
// and leave the rounds as they were.
func TestEncodedRefuses(t *testing.T) {
	var e rounds.Encoded[hand]
	if err := e.Append(&hand{Dealer: 1}); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{`{}`, `[{"dealer":"x"}]`, `[1]`, `[{"dealer":1},{"actions":3}]`, `[`} {
		if err := json.Unmarshal([]byte(in), &e); err == nil {
			t.Errorf("Unmarshal(%s): no error", in)
		}
		if e.Len() != 1 {
			t.Fatalf("after Unmarshal(%s): %d rounds, want 1", in, e.Len())
		}
	}
	if err := json.Unmarshal([]byte(`null`), &e); err != nil || e.Len() != 0 {
		t.Errorf("Unmarshal(null) = %v, %d rounds", err, e.Len())
	}
}

// FuzzEncoded: whatever unmarshals decodes, the same each time, and
// marshals to JSON that unmarshals to the same rounds.
func FuzzEncoded(f *testing.F) {
	for _, s := range []string{`[]`, `null`, `[{"dealer":1,"actions":["x"]}]`, `[{"dealer":1} , {"wins":[1,2],"x":0}]`, `[{"dealer":"1"}]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var e rounds.Encoded[hand]
		if json.Unmarshal(b, &e) != nil {
			return
		}
		hs, err := e.Decode()
		if hs2, err2 := e.Decode(); err != nil || err2 != nil || !reflect.DeepEqual(hs, hs2) {
			t.Fatalf("Decode after Unmarshal(%q): %v, %v", b, err, err2)
		}
		out, err := json.Marshal(e)
		if err != nil {
			t.Fatalf("Marshal after Unmarshal(%q): %v", b, err)
		}
		var back rounds.Encoded[hand]
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("Unmarshal(Marshal(Unmarshal(%q))) = %v", b, err)
		}
		if hs3, err := back.Decode(); err != nil || !reflect.DeepEqual(hs, hs3) {
			t.Fatalf("%q: marshalled and read again: %v, %v; want %v", b, hs3, err, hs)
		}
	})
}
