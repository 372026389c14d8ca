package judgeq_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/judgeq"
	"github.com/mahjong-authority/authority/internal/tile"
)

func TestAskClassical(t *testing.T) {
	cl := str("classical")
	for _, c := range []struct {
		q    judgeq.Question
		want error // matched with errors.Is; nil: any error
	}{
		{judgeq.Question{Rules: cl, Hand: str("123m406m789m234s5s")}, judgeq.ErrNotClassical},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s1f")}, judgeq.ErrNotClassical},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5f")}, judgeq.ErrNotClassical},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), BonusTiles: str("1f5s")}, judgeq.ErrNotClassical},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), BonusTiles: str("1f9f")}, tile.ErrSyntax},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), BonusTiles: str("1f1f")}, nil},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), Limit: new(700)}, nil},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), SeatWind: str("X")}, nil},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), Haitei: true}, classical.ErrSituation},
		{judgeq.Question{Rules: cl, Hand: str("123m456m789m234s5s"), WinTile: str("5s"), Tsumo: true, Rinshan: true}, classical.ErrSituation},
		{judgeq.Question{Rules: cl, Hand: str("123m456m234s5s"), Melds: []judgeq.Meld{{Type: "kan", Tiles: "0555p"}}}, judgeq.ErrNotClassical},
		{judgeq.Question{Rules: cl, Hand: str("1111m456m789m234s"), WinTile: str("1m")}, nil},
		{judgeq.Question{Rules: cl}, nil},
	} {
		_, err := judgeq.Ask(&c.q)
		if err == nil || c.want != nil && !errors.Is(err, c.want) {
			t.Errorf("Ask(%+v) = %v, want an error matching %v", c.q, err, c.want)
		}
	}

	// Fields of riichi and Sichuan are not classical: they change nothing.
	q := judgeq.Question{Rules: cl, Hand: str("19m19p19s1234567z"), WinTile: str("1z"),
		Riichi: true, DoraIndicators: str("5m"), MissingSuit: str("q"), FanCap: new(-1), Limit: new(1500)}
	a, err := judgeq.Ask(&q)
	if err != nil || a.Rules != "classical" || !a.Classical.Win || a.Classical.Special != classical.UniqueWonder ||
		a.Classical.Score != 3000 || a.ClassicalLimit != 1500 {
		t.Errorf("Ask(%+v) = %+v, %v; want a Unique Wonder worth 3000", q, a.Classical, err)
	}
}

func ExampleAsk_classical() {
	cl := "classical"
	a, err := judgeq.Ask(&judgeq.Question{Rules: &cl, Hand: str("12345678m11234z")})
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Shanten, a.Waits)
	for s, w := range a.Fishing.Specials {
		fmt.Println(s, w)
	}
	a, _ = judgeq.Ask(&judgeq.Question{Rules: &cl, Hand: str("12345678m11234z"), WinTile: str("9m")})
	fmt.Println(a.Classical.Special, a.Classical.Limits, a.Classical.Score)
	// Output:
	// 0 9m
	// wriggly_snake 9m
	// wriggly_snake 1 1000
}
