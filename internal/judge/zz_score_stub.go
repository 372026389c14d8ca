package judge

// TEMPORARY (table branch): a stand-in for judge.Score and judge.Pay with
// the agreed signatures, so that the table compiles and its flow can be
// tested before the judge-score branch lands. It treats every complete hand
// as a 1-han 30-fu win. Delete this file when merging main with the real
// scorer.

import "github.com/mahjong-authority/authority/internal/tile"

type GroupType uint8

type Group struct {
	Type GroupType
	Kind tile.Kind
}

type Reading struct {
	Groups [4]Group
	N      int
	Pair   tile.Kind
}

type Result struct {
	Win     bool
	Reason  Reason
	Han     int
	Fu      int
	Yakuman int
	Limit   Limit
	Base    int
	Pay     Payment
	Total   int
	yaku    [8]YakuHan
	nYaku   int
}

func (r *Result) Yaku() []YakuHan { return r.yaku[:r.nYaku] }

func Score(h *Hand, win tile.Tile, s *Situation, r *Rules) Result {
	c := tile.CountsOf(h.Concealed)
	c[win.Kind()]++
	if !Complete(&c) {
		return Result{Reason: NotComplete}
	}
	res := Result{Win: true, Han: 1, Fu: 30, Base: 30 * 8}
	res.yaku[0] = YakuHan{Yaku: Tanyao, Han: 1}
	res.nYaku = 1
	res.Pay = Pay(res.Base, s.Dealer(), s.Tsumo, s.Honba)
	if s.Tsumo {
		if s.Dealer() {
			res.Total = 3 * res.Pay.TsumoNonDealer
		} else {
			res.Total = res.Pay.TsumoDealer + 2*res.Pay.TsumoNonDealer
		}
	} else {
		res.Total = res.Pay.Ron
	}
	res.Total += 1000 * s.RiichiSticks
	return res
}

func Pay(base int, dealer, tsumo bool, honba int) Payment {
	up := func(x int) int { return (x + 99) / 100 * 100 }
	switch {
	case !tsumo && dealer:
		return Payment{Ron: up(6*base) + 300*honba}
	case !tsumo:
		return Payment{Ron: up(4*base) + 300*honba}
	case dealer:
		return Payment{TsumoNonDealer: up(2*base) + 100*honba}
	}
	return Payment{TsumoDealer: up(2*base) + 100*honba, TsumoNonDealer: up(base) + 100*honba}
}
