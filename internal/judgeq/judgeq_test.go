package judgeq_test

import (
	"errors"
	"fmt"
	"testing"

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
