package tenhou

import (
	"fmt"
	"slices"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

// yakuNames are Tenhou's names of the yaku (its mjlog ids in comments);
// the winds of yakuhai are added where they are written.
var yakuNames = map[judge.Yaku]string{
	judge.MenzenTsumo: "門前清自摸和", // 0
	judge.Riichi:      "立直",     // 1
	judge.Ippatsu:     "一発",     // 2
	judge.Chankan:     "槍槓",     // 3
	judge.Rinshan:     "嶺上開花",   // 4
	judge.Haitei:      "海底摸月",   // 5
	judge.Houtei:      "河底撈魚",   // 6
	judge.Pinfu:       "平和",     // 7
	judge.Tanyao:      "断幺九",    // 8
	judge.Iipeikou:    "一盃口",    // 9
	// 10..13 自風 東南西北, 14..17 場風 東南西北
	judge.YakuhaiHaku:    "役牌 白",    // 18
	judge.YakuhaiHatsu:   "役牌 發",    // 19
	judge.YakuhaiChun:    "役牌 中",    // 20
	judge.DoubleRiichi:   "両立直",     // 21
	judge.Chiitoitsu:     "七対子",     // 22
	judge.Chanta:         "混全帯幺九",   // 23
	judge.Ittsu:          "一気通貫",    // 24
	judge.Sanshoku:       "三色同順",    // 25
	judge.SanshokuDoukou: "三色同刻",    // 26
	judge.Sankantsu:      "三槓子",     // 27
	judge.Toitoi:         "対々和",     // 28
	judge.Sanankou:       "三暗刻",     // 29
	judge.Shousangen:     "小三元",     // 30
	judge.Honroutou:      "混老頭",     // 31
	judge.Ryanpeikou:     "二盃口",     // 32
	judge.Junchan:        "純全帯幺九",   // 33
	judge.Honitsu:        "混一色",     // 34
	judge.Chinitsu:       "清一色",     // 35
	judge.TenhouYaku:     "天和",      // 37
	judge.Chiihou:        "地和",      // 38
	judge.Daisangen:      "大三元",     // 39
	judge.Suuankou:       "四暗刻",     // 40
	judge.SuuankouTanki:  "四暗刻単騎",   // 41
	judge.Tsuuiisou:      "字一色",     // 42
	judge.Ryuuiisou:      "緑一色",     // 43
	judge.Chinroutou:     "清老頭",     // 44
	judge.Chuuren:        "九蓮宝燈",    // 45
	judge.Chuuren9:       "純正九蓮宝燈",  // 46
	judge.Kokushi:        "国士無双",    // 47
	judge.Kokushi13:      "国士無双１３面", // 48
	judge.Daisuushii:     "大四喜",     // 49
	judge.Shousuushii:    "小四喜",     // 50
	judge.Suukantsu:      "四槓子",     // 51
	judge.Dora:           "ドラ",      // 52
	judge.UraDora:        "裏ドラ",     // 53
	judge.AkaDora:        "赤ドラ",     // 54
}

// yakuOrder is the order Tenhou lists the yaku of a hand in. Tenhou does
// not document it; this order agrees with every one of the 870 wins of the
// shared real games (TestYakuOrder). Pairs never seen together
// (double riichi, ryanpeikou, junchan, honroutou, sankantsu against the
// rest) are placed by Tenhou's id. Yakuhai (rank 50) are ordered among
// themselves by yakuhaiOrder; yakuman by Tenhou's id.
var yakuOrder = map[judge.Yaku]int{
	judge.Riichi: 1, judge.DoubleRiichi: 1, judge.Ippatsu: 2, judge.Chankan: 3, judge.Rinshan: 4,
	judge.Haitei: 5, judge.Houtei: 6, judge.MenzenTsumo: 8, judge.Pinfu: 9,
	judge.Iipeikou: 10, judge.Chiitoitsu: 11, judge.Ittsu: 12, judge.Sanshoku: 13,
	judge.Sankantsu: 14, judge.Shousangen: 15, judge.Sanankou: 16, judge.Toitoi: 17,
	judge.Tanyao:      18,
	judge.YakuhaiHaku: 50, judge.YakuhaiHatsu: 50, judge.YakuhaiChun: 50,
	judge.YakuhaiSeatWind: 50, judge.YakuhaiRoundWind: 50,
	judge.Chanta: 60, judge.SanshokuDoukou: 61, judge.Honroutou: 62, judge.Ryanpeikou: 63,
	judge.Junchan: 64, judge.Honitsu: 65, judge.Chinitsu: 66,
	judge.Dora: 90, judge.AkaDora: 91, judge.UraDora: 92,
	judge.TenhouYaku: 137, judge.Chiihou: 138, judge.Daisangen: 139, judge.Suuankou: 140,
	judge.SuuankouTanki: 141, judge.Tsuuiisou: 142, judge.Ryuuiisou: 143, judge.Chinroutou: 144,
	judge.Chuuren: 145, judge.Chuuren9: 146, judge.Kokushi: 147, judge.Kokushi13: 148,
	judge.Daisuushii: 149, judge.Shousuushii: 150, judge.Suukantsu: 151,
}

var windNames = [4]string{"東", "南", "西", "北"}

// yakuStrings writes a win's yaku as Tenhou does: "name(n飜)" for a yaku
// or a dora count, "name(役満)" for each yakuman (a yakuman hand lists only
// its yakuman); counts of zero are left out.
func yakuStrings(w *table.Won, round, seat tile.Wind) []string {
	ys := orderedYaku(w, round, seat)
	out := make([]string, len(ys))
	for i, y := range ys {
		name := yakuNames[y.Yaku]
		switch y.Yaku {
		case judge.YakuhaiSeatWind:
			name = "自風 " + windNames[seat]
		case judge.YakuhaiRoundWind:
			name = "場風 " + windNames[round]
		}
		if y.Yaku.IsYakuman() {
			out[i] = name + "(役満)"
		} else {
			out[i] = fmt.Sprintf("%s(%d飜)", name, y.Han)
		}
	}
	return out
}

// orderedYaku returns the yaku Tenhou lists for a win, in its order.
func orderedYaku(w *table.Won, round, seat tile.Wind) []judge.YakuHan {
	ys := make([]judge.YakuHan, 0, len(w.Yaku))
	for _, y := range w.Yaku {
		if y.Han == 0 || w.Yakuman > 0 && !y.Yaku.IsYakuman() {
			continue
		}
		ys = append(ys, y)
	}
	slices.SortStableFunc(ys, func(a, b judge.YakuHan) int {
		if d := yakuOrder[a.Yaku] - yakuOrder[b.Yaku]; d != 0 {
			return d
		}
		return yakuhaiOrder(w, a.Yaku, round, seat) - yakuhaiOrder(w, b.Yaku, round, seat)
	})
	return ys
}

// yakuhaiOrder places a yakuhai among the others of the hand where the
// records put it: a concealed triplet first (by kind), then the called
// melds in the order they were called; the round wind before the seat
// wind of the same set. Tenhou does not document it; it fits the 870
// wins of the shared games (TestYakuOrder).
func yakuhaiOrder(w *table.Won, y judge.Yaku, round, seat tile.Wind) int {
	var k tile.Kind
	extra := 0
	switch y {
	case judge.YakuhaiHaku:
		k = tile.Haku
	case judge.YakuhaiHatsu:
		k = tile.Hatsu
	case judge.YakuhaiChun:
		k = tile.Chun
	case judge.YakuhaiRoundWind:
		k = round.Kind()
	case judge.YakuhaiSeatWind:
		k = seat.Kind()
		extra = 1
	default:
		return 0
	}
	for i, m := range w.Melds {
		if m.Type != judge.Chi && m.Kind() == k {
			return 2*(100+i) + extra
		}
	}
	return 2*int(k) + extra
}
