package deck

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestPythonDeck runs docs/verify_deck.py, the independent deck verifier
// that docs/doudizhu.md offers, on the document's seed and on random seeds,
// and compares its deals with New's, so that the script cannot drift from
// the server. It needs python3; with AUTHORITY_REQUIRE_PYTHON set (CI) a
// missing interpreter fails instead of skipping.
func TestPythonDeck(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("AUTHORITY_REQUIRE_PYTHON") != "" {
			t.Fatal("python3 not found, and AUTHORITY_REQUIRE_PYTHON is set")
		}
		t.Skip("python3 not found")
	}
	seeds := make([][32]byte, 4)
	for i := range seeds[0] {
		seeds[0][i] = byte(i)
	}
	for k := 1; k < len(seeds); k++ {
		for i := range seeds[k] {
			seeds[k][i] = byte(i*31 + k*97 + i*i*k)
		}
	}
	for _, seed := range seeds {
		out, err := exec.Command(py, "../../../docs/verify_deck.py", hex.EncodeToString(seed[:])).Output()
		if err != nil {
			t.Fatalf("verify_deck.py %x: %v", seed, err)
		}
		d := New(seed)
		var ranks strings.Builder
		var ids []string
		for _, c := range d.Cards {
			ranks.WriteString(c.String())
			ids = append(ids, fmt.Sprint(int(c)))
		}
		want := fmt.Sprintf("deck %s\ncards %s\nfirst %d\nhand0 %s\nhand1 %s\nhand2 %s\nkitty %s\n",
			ranks.String(), strings.Join(ids, " "), d.First, d.Hand(0), d.Hand(1), d.Hand(2), d.Kitty())
		if string(out) != want {
			t.Errorf("verify_deck.py %x:\n%s\nNew:\n%s", seed, out, want)
		}
	}
}
