package hosting

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// TestPythonRecord runs docs/verify_deck.py --record, the independent
// checker of decks, seeds and commitments, on the record of a match played
// here: it agrees, and it refuses the record with a deal seed swapped. It
// needs python3 (AUTHORITY_REQUIRE_PYTHON set: a missing one fails).
func TestPythonRecord(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("AUTHORITY_REQUIRE_PYTHON") != "" {
			t.Fatal("python3 not found, and AUTHORITY_REQUIRE_PYTHON is set")
		}
		t.Skip("python3 not found")
	}
	g := newGame(t, table.Rules{Name: "p", Deals: 3})
	b := NewBot().(*Bot)
	for !g.Over() {
		step(t, g, b)
	}
	rec := recordOf(t, g)
	dir := t.TempDir()
	write := func(name string) string {
		raw, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	out, err := exec.Command(py, "../../../docs/verify_deck.py", "--record", write("good.json")).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "derived from the server seed") {
		t.Fatalf("verify_deck.py --record: %v\n%s", err, out)
	}
	rec.Deals[0].Seed, rec.Deals[1].Seed = rec.Deals[1].Seed, rec.Deals[0].Seed
	out, err = exec.Command(py, "../../../docs/verify_deck.py", "--record", write("bad.json")).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "FAILED") {
		t.Fatalf("verify_deck.py --record of a tampered record: %v\n%s", err, out)
	}
}
