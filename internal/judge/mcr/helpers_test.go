package mcr

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

// parseMelds reads melds written "chi:123m", "pon:555z", "kan:1111m"
// (open) or "ankan:1111m" (closed).
func parseMelds(specs string) ([]judge.Meld, error) {
	var ms []judge.Meld
	for _, f := range strings.Fields(specs) {
		typ, tiles, ok := strings.Cut(f, ":")
		if !ok {
			return nil, fmt.Errorf("meld %q: want type:tiles", f)
		}
		ts, err := tile.Parse(tiles)
		if err != nil {
			return nil, err
		}
		tile.Sort(ts)
		var m judge.Meld
		switch typ {
		case "chi":
			m.Type = judge.Chi
		case "pon":
			m.Type = judge.Pon
		case "kan":
			m.Type = judge.OpenKan
		case "ankan":
			m.Type = judge.ClosedKan
		default:
			return nil, fmt.Errorf("meld %q: unknown type", f)
		}
		if len(ts) != m.Len() {
			return nil, fmt.Errorf("meld %q: %d tiles", f, len(ts))
		}
		copy(m.Tiles[:], ts)
		ms = append(ms, m)
	}
	return ms, nil
}

// handOf builds a hand and its winning tile.
func handOf(t testing.TB, concealed, win, melds string) (judge.Hand, tile.Tile) {
	t.Helper()
	c, err := tile.Parse(concealed)
	if err != nil {
		t.Fatalf("hand %q: %v", concealed, err)
	}
	w, err := tile.ParseTile(win)
	if err != nil {
		t.Fatalf("win %q: %v", win, err)
	}
	ms, err := parseMelds(melds)
	if err != nil {
		t.Fatal(err)
	}
	return judge.Hand{Concealed: c, Melds: ms}, w
}

// fanList writes a result's fans as "name*count, ..." (count only when
// above one), for comparing with a table.
func fanList(r *Result) string {
	var b strings.Builder
	for i, l := range r.Fans() {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(l.Fan.String())
		if l.Count != 1 {
			fmt.Fprintf(&b, "*%d", l.Count)
		}
	}
	return b.String()
}
