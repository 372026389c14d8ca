package classical

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// parseLine reads a hand and, after a bar, a win:
// "123m456p chow:789s pung:111z kong:2222z ckong:3333z | 5p tsumo rinshan
// chankan haitei houtei original seat=S round=E bonus=1f5f limit=1000".
// The concealed tiles may be "-" (none). Without a bar there is no win
// (win is NumKinds).
func parseLine(s string) (h Hand, win tile.Kind, sit Situation, r Rules, err error) {
	handPart, winPart, hasWin := strings.Cut(s, "|")
	f := strings.Fields(handPart)
	win = tile.NumKinds
	r = Default
	if len(f) == 0 {
		return h, win, sit, r, fmt.Errorf("empty hand in %q", s)
	}
	if f[0] != "-" {
		ts, err := tile.Parse(f[0])
		if err != nil {
			return h, win, sit, r, err
		}
		h.Concealed = tile.CountsOf(ts)
	}
	for _, m := range f[1:] {
		typ, tiles, ok := strings.Cut(m, ":")
		if !ok {
			return h, win, sit, r, fmt.Errorf("bad meld %q", m)
		}
		var meld Meld
		switch typ {
		case "chow":
			meld.Type = Chow
		case "pung":
			meld.Type = Pung
		case "kong":
			meld.Type = Kong
		case "ckong":
			meld.Type = ConcealedKong
		default:
			return h, win, sit, r, fmt.Errorf("bad meld type %q", typ)
		}
		ts, err := tile.Parse(tiles)
		if err != nil {
			return h, win, sit, r, err
		}
		if len(ts) != meld.Len() {
			return h, win, sit, r, fmt.Errorf("meld %q has %d tiles", m, len(ts))
		}
		meld.Kind = ts[0].Kind()
		h.Melds = append(h.Melds, meld)
	}
	if !hasWin {
		return h, win, sit, r, nil
	}
	wf := strings.Fields(winPart)
	if len(wf) == 0 {
		return h, win, sit, r, fmt.Errorf("no winning tile in %q", s)
	}
	wt, err := tile.ParseTile(wf[0])
	if err != nil {
		return h, win, sit, r, err
	}
	win = wt.Kind()
	for _, w := range wf[1:] {
		key, val, _ := strings.Cut(w, "=")
		switch key {
		case "tsumo":
			sit.Tsumo = true
		case "rinshan":
			sit.Rinshan = true
		case "chankan":
			sit.Chankan = true
		case "haitei":
			sit.Haitei = true
		case "houtei":
			sit.Houtei = true
		case "original":
			sit.OriginalCall = true
		case "seat", "round":
			wd, err := tile.ParseWind(val)
			if err != nil {
				return h, win, sit, r, err
			}
			if key == "seat" {
				sit.SeatWind = wd
			} else {
				sit.RoundWind = wd
			}
		case "bonus":
			ts, err := tile.Parse(val)
			if err != nil {
				return h, win, sit, r, err
			}
			h.Bonus = BonusOf(ts)
		case "limit":
			if _, err := fmt.Sscan(val, &r.Limit); err != nil {
				return h, win, sit, r, err
			}
		default:
			return h, win, sit, r, fmt.Errorf("bad flag %q", w)
		}
	}
	return h, win, sit, r, nil
}

// mustLine is parseLine for tests.
func mustLine(t testing.TB, s string) (Hand, tile.Kind, Situation, Rules) {
	t.Helper()
	h, win, sit, r, err := parseLine(s)
	if err != nil {
		t.Fatalf("parseLine(%q): %v", s, err)
	}
	return h, win, sit, r
}

// formatLine writes a hand and a win as parseLine reads them.
func formatLine(h *Hand, win tile.Kind, s *Situation, r *Rules) string {
	var b strings.Builder
	if h.Concealed.Total() == 0 {
		b.WriteString("-")
	} else {
		b.WriteString(h.Concealed.String())
	}
	for _, m := range h.Melds {
		var c tile.Counts
		if m.Type == Chow {
			c[m.Kind], c[m.Kind+1], c[m.Kind+2] = 1, 1, 1
		} else {
			c[m.Kind] = uint8(m.Len())
		}
		name := map[MeldType]string{Chow: "chow", Pung: "pung", Kong: "kong", ConcealedKong: "ckong"}[m.Type]
		fmt.Fprintf(&b, " %s:%s", name, c.String())
	}
	if win >= tile.NumKinds {
		return b.String()
	}
	fmt.Fprintf(&b, " | %v", win)
	for _, f := range []struct {
		on   bool
		name string
	}{{s.Tsumo, "tsumo"}, {s.Rinshan, "rinshan"}, {s.Chankan, "chankan"}, {s.Haitei, "haitei"},
		{s.Houtei, "houtei"}, {s.OriginalCall, "original"}} {
		if f.on {
			b.WriteString(" " + f.name)
		}
	}
	fmt.Fprintf(&b, " seat=%v round=%v", s.SeatWind, s.RoundWind)
	if h.Bonus != 0 {
		b.WriteString(" bonus=")
		for i := 0; i < 8; i++ {
			if h.Bonus&(1<<i) != 0 {
				fmt.Fprintf(&b, "%d", i+1)
			}
		}
		b.WriteString("f")
	}
	if r.Limit != Default.Limit {
		fmt.Fprintf(&b, " limit=%d", r.Limit)
	}
	return b.String()
}

// linesString writes a result's lines as "mah_jong 20, dragon_pung x1 1d".
func linesString(r *Result) string {
	var parts []string
	for _, l := range r.Lines() {
		unit := ""
		if l.Item.IsDouble() {
			unit = "d"
		}
		if l.Count == 1 {
			parts = append(parts, fmt.Sprintf("%v %d%s", l.Item, l.Total, unit))
		} else {
			parts = append(parts, fmt.Sprintf("%v x%d %d%s", l.Item, l.Count, l.Total, unit))
		}
	}
	return strings.Join(parts, ", ")
}
