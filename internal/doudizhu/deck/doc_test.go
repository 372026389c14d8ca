package deck

import (
	"fmt"
	mrand "math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestDocVector recomputes the test vector of docs/doudizhu.md and checks
// that the document states every value, so that the document cannot drift
// from the code that shuffles the decks.
func TestDocVector(t *testing.T) {
	doc, err := os.ReadFile("../../../docs/doudizhu.md")
	if err != nil {
		t.Fatal(err)
	}
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	var want []string
	want = append(want, fmt.Sprintf("seed: `%x`", seed))
	r := mrand.NewChaCha8(seed)
	var outs []string
	for range 4 {
		outs = append(outs, fmt.Sprintf("`%016x`", r.Uint64()))
	}
	want = append(want, "outputs: "+strings.Join(outs, ", "))
	r = mrand.NewChaCha8(seed)
	var draws []string
	for i := 53; i > 48; i-- {
		draws = append(draws, fmt.Sprintf("%d (i = %d)", Uniform(r.Uint64, uint64(i+1)), i))
	}
	want = append(want, "`j` = "+strings.Join(draws, ", "))
	d := New(seed)
	var ranks strings.Builder
	var ids []string
	for _, c := range d.Cards {
		ranks.WriteString(c.String())
		ids = append(ids, fmt.Sprint(int(c)))
	}
	want = append(want, "by rank: `"+ranks.String()+"`",
		"card numbers: `"+strings.Join(ids, " ")+"`",
		fmt.Sprintf("first bidder: seat %d", d.First))
	var hands []string
	for s := range Seats {
		hands = append(hands, fmt.Sprintf("seat %d `%s`", s, d.Hand(s).String()))
	}
	want = append(want, "hands: "+strings.Join(hands, ", ")+"; kitty `"+d.Kitty().String()+"`")
	for _, w := range want {
		if !strings.Contains(string(doc), w) {
			t.Errorf("docs/doudizhu.md does not say %q", w)
		}
	}
}
