package judgeq_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/judgeq"
	"github.com/mahjong-authority/authority/internal/tile"
)

func str(s string) *string { return &s }

func TestAskErrors(t *testing.T) {
	for _, c := range []struct {
		q    judgeq.Question
		want error // matched with errors.Is; nil: any error
	}{
		{judgeq.Question{Hand: str("123m456p789s11z2x")}, tile.ErrSyntax},
		{judgeq.Question{Hand: str("123m456p789s11z1f")}, judgeq.ErrFlower},
		{judgeq.Question{Hand: str("23m456m234p678s99s"), WinTile: str("1f")}, judgeq.ErrFlower},
		{judgeq.Question{Hand: str("23m456m234p678s99s"), WinTile: str("1m"), DoraIndicators: str("9q")}, tile.ErrSyntax},
		{judgeq.Question{}, nil},
		{judgeq.Question{Hand: str("1111m")}, nil},
		{judgeq.Question{Hand: str("23m456m234p678s99s"), WinTile: str("1m"), SeatWind: str("east")}, nil},
		{judgeq.Question{Hand: str("23m456m234p678s99s"), WinTile: str("1m"), Honba: -1}, nil},
		{judgeq.Question{Hand: str("23m456m234p678s"), WinTile: str("1m"), Melds: []judgeq.Meld{{Type: "pon", Tiles: "123m"}}}, nil},
	} {
		_, err := judgeq.Ask(&c.q)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("Ask(%+v) = %v, want an error matching %v", c.q, err, c.want)
		}
	}
}

func TestAskPoints(t *testing.T) {
	for _, c := range []struct {
		tsumo            bool
		seat             string
		ron, dealer, non bool
	}{
		{false, "S", true, false, false},
		{true, "E", false, false, true},
		{true, "W", false, true, true},
	} {
		a, err := judgeq.Ask(&judgeq.Question{Hand: str("23m456m234p678s99s"), WinTile: str("1m"), Riichi: true, Tsumo: c.tsumo, SeatWind: str(c.seat)})
		if err != nil || !a.Result.Win {
			t.Fatalf("Ask: %+v, %v", a, err)
		}
		p := a.Points
		if (p.Ron != nil) != c.ron || (p.TsumoDealer != nil) != c.dealer || (p.TsumoNonDealer != nil) != c.non {
			t.Errorf("tsumo %v seat %s: points %+v, want ron %v dealer %v non-dealer %v", c.tsumo, c.seat, p, c.ron, c.dealer, c.non)
		}
	}
}

func ExampleAsk() {
	a, err := judgeq.Ask(&judgeq.Question{Hand: str("123m456p789s1122z")})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Shanten, a.Waits)
	a, _ = judgeq.Ask(&judgeq.Question{Hand: str("123m456p789s1122z"), WinTile: str("2z"), Riichi: true, SeatWind: str("S")})
	fmt.Println(a.Result.Han, a.Result.Fu, *a.Points.Ron)
	// Output:
	// 0 12z
	// 2 40 2600
}

func TestAskSichuan(t *testing.T) {
	sc := str("sichuan")
	for _, c := range []struct {
		q    judgeq.Question
		want error // matched with errors.Is; nil: any error
	}{
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s1z"), MissingSuit: str("p")}, judgeq.ErrNotSichuan},
		{judgeq.Question{Rules: sc, Hand: str("123m406m789m234s5s"), MissingSuit: str("p")}, judgeq.ErrNotSichuan},
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s5s"), MissingSuit: str("p"), WinTile: str("1f")}, judgeq.ErrNotSichuan},
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s5x"), MissingSuit: str("p")}, tile.ErrSyntax},
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s5s")}, nil},
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s5s"), MissingSuit: str("z")}, nil},
		{judgeq.Question{Rules: sc, MissingSuit: str("p")}, nil},
		{judgeq.Question{Rules: sc, Hand: str("123m456m234s5s"), MissingSuit: str("p"), Melds: []judgeq.Meld{{Type: "chi", Tiles: "789m"}}}, nil},
		{judgeq.Question{Rules: sc, Hand: str("123m456m234s5s"), MissingSuit: str("p"), Melds: []judgeq.Meld{{Type: "pon", Tiles: "111z"}}}, judgeq.ErrNotSichuan},
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s5s"), MissingSuit: str("p"), WinTile: str("5s"), Tsumo: true, Houtei: true}, sichuan.ErrSituation},
		{judgeq.Question{Rules: sc, Hand: str("123m456m789m234s5s"), MissingSuit: str("p"), WinTile: str("5s"), FanCap: new(-1)}, nil},
		{judgeq.Question{Rules: sc, Hand: str("1111m456m789m234s"), MissingSuit: str("p"), WinTile: str("1m")}, nil},
		{judgeq.Question{Rules: str("chinese"), Hand: str("123m456m789m234s5s")}, nil},
	} {
		_, err := judgeq.Ask(&c.q)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("Ask(%+v) = %v, want an error matching %v", c.q, err, c.want)
		}
	}

	// Fields of riichi are not Sichuan's: they change nothing.
	q := judgeq.Question{Rules: sc, Hand: str("1111m2233m4455m6m"), MissingSuit: str("s"), WinTile: str("6m"),
		Riichi: true, Ippatsu: true, DoraIndicators: str("5m"), SeatWind: str("nonsense"), Honba: -3}
	a, err := judgeq.Ask(&q)
	if err != nil || a.Rules != "sichuan" || !a.Sichuan.Win || a.Sichuan.Fan != 3 || a.Sichuan.RawFan != 5 || a.Sichuan.Value != 8 {
		t.Errorf("Ask(%+v) = %+v, %v; want a win of 3 fan (5 before the cap)", q, a, err)
	}
	if a, err := judgeq.Ask(&judgeq.Question{Hand: str("123m456p789s1122z")}); err != nil || a.Rules != "riichi" {
		t.Errorf("Ask without rules = %+v, %v; want riichi", a, err)
	}
}

func ExampleAsk_sichuan() {
	sc := "sichuan"
	a, err := judgeq.Ask(&judgeq.Question{Rules: &sc, Hand: str("1111m2233m4455m6m"), MissingSuit: str("p")})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Shanten, a.Waits)
	a, _ = judgeq.Ask(&judgeq.Question{Rules: &sc, Hand: str("1111m2233m4455m6m"), MissingSuit: str("p"), WinTile: str("6m"), FanCap: new(5)})
	for _, l := range a.Sichuan.Lines() {
		fmt.Println(l.Fan, l.Count)
	}
	fmt.Println(a.Sichuan.Fan, a.Sichuan.Value)
	// Output:
	// 0 2356m
	// gen 1
	// qing_yi_se 2
	// qi_dui 2
	// 5 32
}

func TestAskMCR(t *testing.T) {
	m := str("mcr")
	for _, c := range []struct {
		q    judgeq.Question
		want error // matched with errors.Is; nil: any error
	}{
		{judgeq.Question{Rules: m, Hand: str("123m456p789s1299s"), WinTile: str("3s"), Rinshan: true}, mcr.ErrSituation},
		{judgeq.Question{Rules: m, Hand: str("123m456p789s1299s"), WinTile: str("3s"), Tsumo: true, Chankan: true}, mcr.ErrSituation},
		{judgeq.Question{Rules: m, Hand: str("123m456p789s1299s"), WinTile: str("3s"), Flowers: 9}, mcr.ErrSituation},
		{judgeq.Question{Rules: m, Hand: str("123m456p789s1299s"), WinTile: str("2s"), Chankan: true}, mcr.ErrSituation},
		{judgeq.Question{Rules: m, Hand: str("123m456p789s1299s"), WinTile: str("1f")}, judgeq.ErrFlower},
		{judgeq.Question{Rules: m, Hand: str("123m456p789s1299x")}, tile.ErrSyntax},
		{judgeq.Question{Rules: m, Hand: str("123m456p789s129s"), WinTile: str("3s")}, nil},
		{judgeq.Question{Rules: m, Hand: str("1111m456p789s129s"), WinTile: str("1m")}, nil},
		{judgeq.Question{Rules: m}, nil},
	} {
		if _, err := judgeq.Ask(&c.q); err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("Ask(%+v) = %v, want an error matching %v", c.q, err, c.want)
		}
	}
	a, err := judgeq.Ask(&judgeq.Question{Rules: m, Hand: str("123m456p789s1299s"), WinTile: str("3s"), Flowers: 2})
	if err != nil || a.Rules != "mcr" || !a.MCR.Win || a.MCR.Total != 16 || a.MCR.TotalWithoutFlowers != 14 {
		t.Errorf("Ask(MCR win) = %+v, %v; want a 16-point win, 14 without flowers", a.MCR, err)
	}
}
