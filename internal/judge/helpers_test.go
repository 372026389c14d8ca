package judge

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// parseMelds reads melds written as "chi:123m pon:555z kan:1111m
// ankan:9999p addkan:2222s".
func parseMelds(t testing.TB, s string) []Meld {
	t.Helper()
	var ms []Meld
	for _, f := range strings.Fields(s) {
		typ, tiles, ok := strings.Cut(f, ":")
		if !ok {
			t.Fatalf("bad meld %q", f)
		}
		var m Meld
		switch typ {
		case "chi":
			m.Type = Chi
		case "pon":
			m.Type = Pon
		case "kan":
			m.Type = OpenKan
		case "addkan":
			m.Type = AddedKan
		case "ankan":
			m.Type = ClosedKan
		default:
			t.Fatalf("bad meld type %q", typ)
		}
		ts := tile.MustParse(tiles)
		tile.Sort(ts)
		if len(ts) != m.Len() {
			t.Fatalf("meld %q has %d tiles", f, len(ts))
		}
		copy(m.Tiles[:], ts)
		ms = append(ms, m)
	}
	return ms
}

// parseSituation reads a situation written as words: "tsumo riichi
// double_riichi ippatsu rinshan chankan haitei houtei tenhou chiihou
// seat=S round=E dora=1m4p ura=9s honba=2 sticks=1". The default is a
// ron by the South seat in the East round.
func parseSituation(t testing.TB, s string) *Situation {
	t.Helper()
	sit := &Situation{SeatWind: tile.WindSouth, RoundWind: tile.WindEast}
	for _, f := range strings.Fields(s) {
		key, val, _ := strings.Cut(f, "=")
		var err error
		switch key {
		case "tsumo":
			sit.Tsumo = true
		case "riichi":
			sit.Riichi = true
		case "double_riichi":
			sit.DoubleRiichi = true
		case "ippatsu":
			sit.Ippatsu = true
		case "rinshan":
			sit.Rinshan = true
		case "chankan":
			sit.Chankan = true
		case "haitei":
			sit.Haitei = true
		case "houtei":
			sit.Houtei = true
		case "tenhou":
			sit.Tenhou = true
		case "chiihou":
			sit.Chiihou = true
		case "seat":
			sit.SeatWind, err = tile.ParseWind(val)
		case "round":
			sit.RoundWind, err = tile.ParseWind(val)
		case "dora":
			sit.DoraIndicators, err = tile.Parse(val)
		case "ura":
			sit.UraIndicators, err = tile.Parse(val)
		case "honba":
			sit.Honba, err = strconv.Atoi(val)
		case "sticks":
			sit.RiichiSticks, err = strconv.Atoi(val)
		default:
			t.Fatalf("bad situation word %q", f)
		}
		if err != nil {
			t.Fatalf("situation %q: %v", f, err)
		}
	}
	return sit
}

// yakuString writes the yaku lines as "riichi 1, pinfu 1, dora 1".
func yakuString(r *Result) string {
	var parts []string
	for _, y := range r.Yaku() {
		parts = append(parts, fmt.Sprintf("%v %d", y.Yaku, y.Han))
	}
	return strings.Join(parts, ", ")
}

// resultString writes a result on one line for test messages.
func resultString(r *Result) string {
	if !r.Win {
		return r.Reason.String()
	}
	return fmt.Sprintf("%d han %d fu %dx [%s] %v base %d pay %+v total %d",
		r.Han, r.Fu, r.Yakuman, yakuString(r), r.Limit, r.Base, r.Pay, r.Total)
}

// scoreOf scores a hand written as concealed tiles, melds, the win tile and
// the situation words of parseSituation.
func scoreOf(t testing.TB, hand, melds, win, sit string, r *Rules) Result {
	t.Helper()
	h := &Hand{Concealed: tile.MustParse(hand), Melds: parseMelds(t, melds)}
	w, err := tile.ParseTile(win)
	if err != nil {
		t.Fatal(err)
	}
	return Score(h, w, parseSituation(t, sit), r)
}
