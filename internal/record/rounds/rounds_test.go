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
	// A snapshot holds the rounds squeezed; it reads them back, as it
	// reads the plain array of a []hand.
	type snapshot struct {
		Hands rounds.Encoded[hand] `json:"hands"`
	}
	b, _ := json.Marshal(snapshot{done})
	var back, plain snapshot
	err1 := json.Unmarshal(b, &back)
	err2 := json.Unmarshal([]byte(`{"hands":[{"dealer":3,"actions":["3 discard 5p"]}]}`), &plain)
	h1, _ := back.Hands.Decode()
	h2, _ := plain.Hands.Decode()
	fmt.Println(h1, err1)
	fmt.Println(h2, err2)
	// Output:
	// 2 [{0 [0 discard 1m] []} {1 [] [2]}] <nil>
	// [{0 [0 discard 1m] []} {1 [] [2]}] <nil>
	// [{3 [3 discard 5p] []}] <nil>
}

// TestEncodedJSON: an Encoded reads what it marshals, and what the []T
// of its rounds marshals, as the same rounds; Decode returns new values
// each time.
func TestEncodedJSON(t *testing.T) {
	for _, hs := range [][]hand{nil, {{Dealer: 3, Actions: []string{}}}, {{Actions: []string{"a", "b"}}, {Dealer: 2, Wins: []int{0, 1}}}} {
		var e rounds.Encoded[hand]
		for i := range hs {
			if err := e.Append(&hs[i]); err != nil {
				t.Fatal(err)
			}
		}
		own, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var again rounds.Encoded[hand]
		if err := json.Unmarshal(own, &again); err != nil || again.Len() != len(hs) {
			t.Fatalf("Unmarshal(Marshal(%v)) = %v, %d rounds", hs, err, again.Len())
		}
		if got, err := again.Decode(); err != nil || !reflect.DeepEqual(got, append([]hand{}, hs...)) {
			t.Fatalf("the rounds of Unmarshal(Marshal(%v)) = %v, %v", hs, got, err)
		}
		want, _ := json.Marshal(append([]hand{}, hs...))
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
	for _, in := range []string{`{}`, `{"squeezed":["AAAA"]}`, `{"squeezed":[1]}`, `[{"dealer":"x"}]`, `[1]`, `[{"dealer":1},{"actions":3}]`, `[`} {
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
