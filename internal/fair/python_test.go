package fair_test

import (
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/wall"
)

// TestPythonVerifier runs docs/verify_wall.py, the independent verifier
// that docs/fairness.md offers to players, and compares what it derives
// with the server's own code: the test vector's seeds and commitment, and
// the walls of random seeds with their dead walls. Without this the
// script could drift from the server unnoticed, and a player checking a
// fair game with it would be told the game was unfair.
//
// It needs python3; CI sets AUTHORITY_REQUIRE_PYTHON=1 so that a missing
// interpreter fails there instead of skipping.
func TestPythonVerifier(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("AUTHORITY_REQUIRE_PYTHON") != "" {
			t.Fatal("python3 not found, and AUTHORITY_REQUIRE_PYTHON is set")
		}
		t.Skip("python3 not found")
	}
	run := func(args ...string) map[string]string {
		t.Helper()
		out, err := exec.Command(py, append([]string{"../../docs/verify_wall.py"}, args...)...).Output()
		if err != nil {
			t.Fatalf("verify_wall.py %v: %v", args, err)
		}
		fields := map[string]string{}
		for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			for _, label := range pyLabels {
				if rest, ok := strings.CutPrefix(line, label+" "); ok {
					fields[label] = strings.TrimSpace(rest)
				}
			}
		}
		return fields
	}

	var server [32]byte
	for i := range server {
		server[i] = byte(i)
	}
	tableSeed := fair.TableSeed(server, [fair.Seats][]byte{[]byte("alice"), nil, {0, 1, 2}, []byte("bob's dice")})
	r0 := fair.RoundSeed(tableSeed, 0)
	seedCommit := fair.SeedCommitment(server)
	commit := fair.Commit(r0, "3f1c2a9e-0000-4000-8000-000000000001", 0)
	got := run()
	for label, want := range map[string]string{
		"seed commitment": hex.EncodeToString(seedCommit[:]),
		"table seed":      hex.EncodeToString(tableSeed[:]),
		"round 0 seed":    hex.EncodeToString(r0[:]),
		"commitment":      hex.EncodeToString(commit[:]),
	} {
		if got[label] != want {
			t.Errorf("test vector %s: python %q, Go %q", label, got[label], want)
		}
	}
	checkWall(t, r0, got)

	r := mrand.New(mrand.NewPCG(1, 2))
	for range 4 {
		var seed [32]byte
		for i := range seed {
			seed[i] = byte(r.Uint32())
		}
		checkWall(t, seed, run(hex.EncodeToString(seed[:])))
	}
}

// pyLabels are the lines of verify_wall.py's output that are compared.
var pyLabels = []string{"seed commitment", "table seed", "round 0 seed", "commitment", "wall", "rinshan", "dora, ura", "wall108", "wall144"}

// checkWall compares the script's wall and dead wall for seed with
// wall.New's, and its 108- and 144-tile walls with wall.New108's and
// wall.New144's.
func checkWall(t *testing.T, seed [32]byte, got map[string]string) {
	t.Helper()
	w := wall.New(seed, true)
	var all, rinshan strings.Builder
	for _, x := range w.Tiles {
		all.WriteString(x.String())
	}
	for i := range 4 {
		rinshan.WriteString(w.Tiles[wall.RinshanPos(i)].String())
	}
	var dora []string
	for i := range 5 {
		dora = append(dora, fmt.Sprintf("%v/%v", w.Tiles[wall.DoraPos(i)], w.Tiles[wall.UraPos(i)]))
	}
	var w108, w144 strings.Builder
	for _, x := range wall.New108(seed).Tiles {
		w108.WriteString(x.String())
	}
	for _, x := range wall.New144(seed).Tiles {
		w144.WriteString(x.String())
	}
	for label, want := range map[string]string{
		"wall":      all.String(),
		"rinshan":   rinshan.String(),
		"dora, ura": strings.Join(dora, " "),
		"wall108":   w108.String(),
		"wall144":   w144.String(),
	} {
		if got[label] != want {
			t.Errorf("seed %x, %s: python %q, Go %q", seed, label, got[label], want)
		}
	}
}
