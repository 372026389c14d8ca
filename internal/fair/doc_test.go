package fair_test

import (
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/fair"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// TestDocVector recomputes the test vector of docs/fairness.md and checks
// that the document states every value: the document cannot drift from the
// code that deals the walls.
func TestDocVector(t *testing.T) {
	doc, err := os.ReadFile("../../docs/fairness.md")
	if err != nil {
		t.Fatal(err)
	}
	var server [32]byte
	for i := range server {
		server[i] = byte(i)
	}
	entropy := [fair.Seats][]byte{[]byte("alice"), nil, {0, 1, 2}, []byte("bob's dice")}
	const tableID = "3f1c2a9e-0000-4000-8000-000000000001"
	tableSeed := fair.TableSeed(server, entropy)
	r0 := fair.RoundSeed(tableSeed, 0)
	seedCommit := fair.SeedCommitment(server)
	commit := fair.Commit(r0, tableID, 0)
	want := []string{
		hex.EncodeToString(server[:]),
		hex.EncodeToString(seedCommit[:]),
		"seat 0 `" + hex.EncodeToString(entropy[0]) + "`",
		"seat 2 `" + hex.EncodeToString(entropy[2]) + "`",
		"seat 3 `" + hex.EncodeToString(entropy[3]) + "`",
		hex.EncodeToString(tableSeed[:]),
		hex.EncodeToString(r0[:]),
		tableID,
		hex.EncodeToString(commit[:]),
	}
	r := mrand.NewChaCha8(r0)
	for range 4 {
		want = append(want, fmt.Sprintf("`%016x`", r.Uint64()))
	}
	r = mrand.NewChaCha8(r0)
	for i := 135; i > 130; i-- {
		want = append(want, fmt.Sprintf("%d (i = %d)", wall.Uniform(r.Uint64, uint64(i+1)), i))
	}
	w := wall.New(r0, true)
	var all strings.Builder
	for _, x := range w.Tiles {
		all.WriteString(x.String())
	}
	want = append(want, "`"+all.String()+"`")
	for off := range 4 {
		var h []tile.Tile
		for n := range 13 {
			h = append(h, w.Tiles[wall.DealPos(off, n)])
		}
		want = append(want, fmt.Sprintf("%d `%s`", off, tile.Format(h)))
	}
	each := func(ts []tile.Tile) string {
		var b strings.Builder
		for _, x := range ts {
			b.WriteString(x.String())
		}
		return b.String()
	}
	want = append(want,
		"first draws: `"+each(w.Tiles[wall.LivePos(0):wall.LivePos(8)])+"`",
		"replacement tiles: `"+each(w.Tiles[wall.RinshanPos(0):wall.RinshanPos(4)])+"`",
		"first dora indicator `"+w.Tiles[wall.DoraPos(0)].String()+"`",
		"its ura indicator `"+w.Tiles[wall.UraPos(0)].String()+"`",
	)
	w108, w144 := wall.New108(r0), wall.New144(r0)
	want = append(want, "`"+each(w108.Tiles[:])+"`", "`"+each(w144.Tiles[:])+"`")
	for _, s := range want {
		if !strings.Contains(string(doc), s) {
			t.Errorf("docs/fairness.md does not state %s", s)
		}
	}
}
