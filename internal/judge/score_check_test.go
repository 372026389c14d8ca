package judge

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// checkResult checks what must hold of any Result, whatever the hand.
func checkResult(t *testing.T, what string, r *Result, s *Situation, rules *Rules) {
	t.Helper()
	fail := func(msg string) {
		t.Helper()
		t.Fatalf("%s: %s: %s", what, resultString(r), msg)
	}
	if !r.Win {
		if r.Reason == ReasonNone || len(r.Yaku()) != 0 || r.Han != 0 || r.Total != 0 {
			fail("a non-win carries a score or no reason")
		}
		return
	}
	if r.Reason != ReasonNone {
		fail("a win with a reason")
	}
	sum, prev, yaku := 0, Yaku(0), false
	for _, y := range r.Yaku() {
		if y.Yaku <= prev {
			fail("yaku out of order or repeated")
		}
		prev = y.Yaku
		if y.Han <= 0 {
			fail("a line that counts nothing")
		}
		if y.Yaku.IsYakuman() != (r.Yakuman > 0) {
			fail("yakuman mixed with yaku")
		}
		yaku = yaku || !y.Yaku.IsDora()
		sum += y.Han
	}
	if !yaku {
		fail("no yaku")
	}
	if sum != r.Han {
		fail("the lines do not add up to the han")
	}
	has := func(y Yaku) bool {
		for _, l := range r.Yaku() {
			if l.Yaku == y {
				return true
			}
		}
		return false
	}
	for _, pair := range [][2]Yaku{{Riichi, DoubleRiichi}, {Iipeikou, Ryanpeikou}, {Chanta, Junchan},
		{Chanta, Honroutou}, {Junchan, Honroutou}, {Honitsu, Chinitsu}, {Pinfu, Toitoi}, {Pinfu, Chiitoitsu},
		{Kokushi, Kokushi13}, {Suuankou, SuuankouTanki}, {Chuuren, Chuuren9}, {Shousuushii, Daisuushii},
		{Sanankou, Chiitoitsu}, {Haitei, Houtei}} {
		if has(pair[0]) && has(pair[1]) {
			fail(pair[0].String() + " with " + pair[1].String())
		}
	}
	if has(UraDora) && !s.Riichi && !s.DoubleRiichi {
		fail("ura dora without riichi")
	}
	if r.Yakuman > 0 {
		if r.Limit != Yakuman || r.Han != 13*r.Yakuman || r.Fu != 0 || r.Base != 8000*r.Yakuman {
			fail("a yakuman that does not add up")
		}
	} else {
		if r.Fu != 25 && (r.Fu < 20 || r.Fu%10 != 0 || r.Fu > 130) {
			fail("odd fu")
		}
		if r.Fu == 20 && !(has(Pinfu) && s.Tsumo) {
			fail("20 fu without pinfu tsumo")
		}
		if (r.Fu == 25) != has(Chiitoitsu) {
			fail("25 fu is chiitoitsu's alone")
		}
		if limit, base := limitBase(r.Han, r.Fu, rules); limit != r.Limit || base != r.Base {
			fail("limit or base do not follow from han and fu")
		}
	}
	if r.Pay != Pay(r.Base, s.Dealer(), s.Tsumo, s.Honba) {
		fail("payment does not follow from the base")
	}
	if r.Total != r.Pay.Received(s.Dealer())+1000*s.RiichiSticks {
		fail("total does not add up")
	}
}

// TestScoreBenchHands scores every complete hand of the benchmark set in a
// few situations and checks the invariants of every result.
func TestScoreBenchHands(t *testing.T) {
	wins := loadBenchWins(t)
	sits := []Situation{
		benchSituation,
		{SeatWind: tile.WindEast, RoundWind: tile.WindEast, Tsumo: true, Honba: 2, RiichiSticks: 1},
		{SeatWind: tile.WindWest, RoundWind: tile.WindSouth, DoubleRiichi: true, Ippatsu: true, Tsumo: true,
			DoraIndicators: []tile.Tile{tile.Plain(tile.East), tile.Plain(tile.M9)}, UraIndicators: []tile.Tile{tile.Plain(tile.Chun)}},
	}
	wins2 := 0
	for _, w := range wins {
		for i := range sits {
			for _, rules := range []*Rules{&Default, &Tenhou, &noStack} {
				r := Score(&w.hand, w.win, &sits[i], rules)
				if r.Reason == NotComplete {
					t.Fatalf("%s +%s: not complete", tile.Format(w.hand.Concealed), w.win)
				}
				checkResult(t, tile.Format(w.hand.Concealed)+" +"+w.win.String(), &r, &sits[i], rules)
				if r.Win {
					wins2++
				}
			}
		}
	}
	if wins2 == 0 {
		t.Fatal("no hand won")
	}
}

// TestScoreBadInput checks that hands that cannot be scored are not
// complete, and never panic.
func TestScoreBadInput(t *testing.T) {
	s := &Situation{}
	good := tile.MustParse("23m456m234p678s99s")
	tests := []struct {
		name string
		h    Hand
		win  tile.Tile
	}{
		{"too few tiles", Hand{Concealed: good[:12]}, tile.Plain(tile.M1)},
		{"too many tiles", Hand{Concealed: append(tile.MustParse("1m"), good...)}, tile.Plain(tile.M1)},
		{"a flower", Hand{Concealed: tile.MustParse("23m456m234p678s9s1f")}, tile.Plain(tile.S9)},
		{"a flower won", Hand{Concealed: good}, tile.MustParse("1f")[0]},
		{"five melds", Hand{Melds: make([]Meld, 5)}, tile.Plain(tile.M1)},
		{"a meld of no type", Hand{Concealed: good[:10], Melds: make([]Meld, 1)}, tile.Plain(tile.M1)},
		{"a chi that is no run", Hand{Concealed: tile.MustParse("23m456m678s99s"), Melds: parseMelds(t, "chi:135p")}, tile.Plain(tile.M1)},
		{"a chi of honours", Hand{Concealed: tile.MustParse("23m456m678s99s"), Melds: []Meld{{Type: Chi, Tiles: [4]tile.Tile{27, 28, 29}}}}, tile.Plain(tile.M1)},
		{"a pon of two kinds", Hand{Concealed: tile.MustParse("23m456m678s99s"), Melds: parseMelds(t, "pon:223p")}, tile.Plain(tile.M1)},
		{"a kan of two kinds", Hand{Concealed: tile.MustParse("23m456m678s99s"), Melds: parseMelds(t, "kan:2223p")}, tile.Plain(tile.M1)},
	}
	for _, tt := range tests {
		r := Score(&tt.h, tt.win, s, &Default)
		if r.Reason != NotComplete {
			t.Errorf("%s: Score = %s, want not_complete", tt.name, resultString(&r))
		}
	}
}

func TestScoreAllocs(t *testing.T) {
	h := &Hand{Concealed: tile.MustParse("23m406m234p678s99s")}
	s := parseSituation(t, "riichi tsumo dora=1m ura=8s")
	var r Result
	allocs := testing.AllocsPerRun(100, func() {
		r = Score(h, tile.Plain(tile.M1), s, &Default)
		_ = r.Yaku()
	})
	if allocs != 0 {
		t.Errorf("Score allocates %v times, want 0", allocs)
	}
}

// FuzzScore scores random hands: never a panic, and every result sane.
func FuzzScore(f *testing.F) {
	f.Add("23m456m234p678s99s", "1m", uint16(0))
	f.Add("111m222p333s444z5z", "5z", uint16(1))
	f.Add("19m19p19s1234567z", "1m", uint16(2))
	f.Add("1112345678999m", "5m", uint16(3))
	f.Add("1122m3344p5566s7z", "7z", uint16(4))
	f.Fuzz(func(t *testing.T, hand, win string, flags uint16) {
		ts, err := tile.Parse(hand)
		if err != nil || len(ts) > 13 {
			return
		}
		w, err := tile.ParseTile(win)
		if err != nil || w.Kind() >= tile.NumKinds {
			return
		}
		for _, t := range ts {
			if t.Kind() >= tile.NumKinds {
				return
			}
		}
		c := tile.CountsOf(append(ts, w))
		for _, v := range c {
			if v > 4 {
				return
			}
		}
		// Fewer than 13 tiles: make up the melds with kans (closed) or pons
		// (by the flags) of honours the hand does not hold.
		h := Hand{Concealed: ts}
		need := 13 - len(ts)
		if need%3 != 0 {
			return
		}
		for k := tile.Kind(tile.Chun); need > 0 && k >= tile.East; k-- {
			if c[k] != 0 {
				continue
			}
			t4 := tile.Plain(k)
			typ := ClosedKan
			if flags&(1<<(k-tile.East)) != 0 {
				typ = Pon
			}
			h.Melds = append(h.Melds, Meld{Type: typ, Tiles: [4]tile.Tile{t4, t4, t4, t4}})
			need -= 3
		}
		if need != 0 {
			return
		}
		s := &Situation{
			Tsumo:          flags&0x80 != 0,
			Riichi:         flags&0x100 != 0,
			Ippatsu:        flags&0x200 != 0,
			SeatWind:       tile.Wind(flags >> 10 & 3),
			RoundWind:      tile.Wind(flags >> 12 & 1),
			DoraIndicators: ts[:min(len(ts), 2)],
			UraIndicators:  ts[len(ts)-min(len(ts), 1):],
			Honba:          int(flags >> 13),
		}
		if CheckSituation(&h, s) != nil {
			return
		}
		for _, rules := range []*Rules{&Default, &Tenhou, &noStack, &noKazoe, &kiriage} {
			r := Score(&h, w, s, rules)
			checkResult(t, tile.Format(ts)+" +"+w.String(), &r, s, rules)
			full := tile.CountsOf(append(h.Concealed, w))
			if complete := Complete(&full); (r.Reason != NotComplete) != complete {
				t.Fatalf("%s +%s: %s, but Complete = %v", tile.Format(ts), w, resultString(&r), complete)
			}
		}
	})
}
