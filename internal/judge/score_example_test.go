package judge_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

func ExampleScore() {
	// 123m 456m 234p 678s 99s, waiting on 1m-4m, won by ron on 1m after
	// riichi, with 4m as the dora indicator (the red 5m is a dora twice).
	h := &judge.Hand{Concealed: tile.MustParse("23m406m234p678s99s")}
	s := &judge.Situation{
		Riichi:         true,
		SeatWind:       tile.WindSouth,
		RoundWind:      tile.WindEast,
		DoraIndicators: tile.MustParse("4m"),
	}
	r := judge.Score(h, tile.Plain(tile.M1), s, &judge.Default)
	for _, y := range r.Yaku() {
		fmt.Println(y.Yaku, y.Han)
	}
	fmt.Println(r.Han, "han", r.Fu, "fu", r.Limit, r.Pay.Ron)
	// Output:
	// riichi 1
	// pinfu 1
	// dora 1
	// aka_dora 1
	// 4 han 30 fu none 7700
}

func ExampleScore_yakuman() {
	// Four concealed triplets waiting on the pair: a double yakuman by
	// default, a single one under Tenhou's rules.
	h := &judge.Hand{Concealed: tile.MustParse("111m222p333s444z5z")}
	s := &judge.Situation{SeatWind: tile.WindSouth, RoundWind: tile.WindEast, Tsumo: true}
	for _, rules := range []*judge.Rules{&judge.Default, &judge.Tenhou} {
		r := judge.Score(h, tile.Plain(tile.Haku), s, rules)
		fmt.Println(r.Yaku(), r.Yakuman, r.Pay.TsumoDealer, r.Pay.TsumoNonDealer, r.Total)
	}
	// Output:
	// [{suuankou_tanki 26}] 2 32000 16000 64000
	// [{suuankou_tanki 13}] 1 16000 8000 32000
}

func ExampleScore_noYaku() {
	// An open hand with no yaku: complete, but not a win.
	h := &judge.Hand{
		Concealed: tile.MustParse("23m456m678s99s"),
		Melds:     []judge.Meld{{Type: judge.Chi, Tiles: [4]tile.Tile{tile.Plain(tile.P2), tile.Plain(tile.P3), tile.Plain(tile.P4)}}},
	}
	r := judge.Score(h, tile.Plain(tile.M1), &judge.Situation{}, &judge.Default)
	fmt.Println(r.Win, r.Reason)
	// Output: false no_yaku
}

func ExampleReadings() {
	c := tile.CountsOf(tile.MustParse("111222333m789p55z"))
	for _, r := range judge.Readings(&c, nil) {
		fmt.Println(r)
	}
	// Output:
	// 55z 111m 222m 333m 789p
	// 55z 123m 123m 123m 789p
}

func ExamplePay() {
	// 3 han 30 fu is 960 basic points.
	fmt.Printf("%+v\n", judge.Pay(960, false, false, 0)) // non-dealer ron
	fmt.Printf("%+v\n", judge.Pay(960, true, false, 0))  // dealer ron
	fmt.Printf("%+v\n", judge.Pay(960, false, true, 1))  // non-dealer tsumo, 1 honba
	fmt.Printf("%+v\n", judge.Pay(960, true, true, 0))   // dealer tsumo
	// Output:
	// {Ron:3900 TsumoDealer:0 TsumoNonDealer:0}
	// {Ron:5800 TsumoDealer:0 TsumoNonDealer:0}
	// {Ron:0 TsumoDealer:2100 TsumoNonDealer:1100}
	// {Ron:0 TsumoDealer:0 TsumoNonDealer:2000}
}
