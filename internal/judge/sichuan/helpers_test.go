package sichuan

import (
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// hand reads a hand written as "void concealed melds...": "p
// 123m456m789m234s5s pon:222m kan:3333m ankan:4444m addkan:5555s". The
// void is m, p or s, or - for none.
func hand(t testing.TB, s string) Hand {
	t.Helper()
	f := strings.Fields(s)
	if len(f) < 2 {
		t.Fatalf("bad hand %q", s)
	}
	var h Hand
	switch f[0] {
	case "m":
		h.Void = tile.Man
	case "p":
		h.Void = tile.Pin
	case "s":
		h.Void = tile.Sou
	case "-":
		h.Void = tile.Honor
	default:
		t.Fatalf("bad void %q", f[0])
	}
	if f[1] != "-" {
		h.Concealed = tile.CountsOf(tile.MustParse(f[1]))
	}
	for _, m := range f[2:] {
		typ, tiles, ok := strings.Cut(m, ":")
		if !ok {
			t.Fatalf("bad meld %q", m)
		}
		var meld Meld
		switch typ {
		case "pon":
			meld.Type = Pon
		case "kan":
			meld.Type = OpenKan
		case "addkan":
			meld.Type = AddedKan
		case "ankan":
			meld.Type = ClosedKan
		default:
			t.Fatalf("bad meld type %q", typ)
		}
		ts := tile.MustParse(tiles)
		if len(ts) != meld.Len() {
			t.Fatalf("meld %q has %d tiles", m, len(ts))
		}
		meld.Kind = ts[0].Kind()
		h.Melds = append(h.Melds, meld)
	}
	return h
}

func kind(t testing.TB, s string) tile.Kind {
	t.Helper()
	tt, err := tile.ParseTile(s)
	if err != nil {
		t.Fatal(err)
	}
	return tt.Kind()
}

// parseSit reads flags written as words: "tsumo rinshan after_kan chankan
// haitei houtei".
func parseSit(t testing.TB, s string) Situation {
	t.Helper()
	var sit Situation
	for _, f := range strings.Fields(s) {
		switch f {
		case "tsumo":
			sit.Tsumo = true
		case "rinshan":
			sit.Rinshan = true
		case "after_kan":
			sit.AfterKanDiscard = true
		case "chankan":
			sit.Chankan = true
		case "haitei":
			sit.Haitei = true
		case "houtei":
			sit.Houtei = true
		default:
			t.Fatalf("bad flag %q", f)
		}
	}
	return sit
}

// lines writes a result's lines as "gen 2, qi_dui 2"; "" for none.
func lines(r *Result) string {
	var b strings.Builder
	for i, l := range r.Lines() {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(l.Fan.String())
		b.WriteByte(' ')
		b.WriteByte(byte('0' + l.Count))
	}
	return b.String()
}
