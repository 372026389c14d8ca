package judge

import (
	"fmt"
	"testing"
)

// noKiriage etc. are rule sets that switch one thing off or on.
var (
	noOpenTanyao = Rules{Name: "no-kuitan", AkaDora: true, KazoeYakuman: true, DoubleYakuman: true, StackYakuman: true}
	noAka        = Rules{Name: "no-aka", OpenTanyao: true, KazoeYakuman: true, DoubleYakuman: true, StackYakuman: true}
	noKazoe      = Rules{Name: "no-kazoe", AkaDora: true, OpenTanyao: true, DoubleYakuman: true, StackYakuman: true}
	kiriage      = Rules{Name: "kiriage", AkaDora: true, OpenTanyao: true, KazoeYakuman: true, Kiriage: true, DoubleYakuman: true, StackYakuman: true}
	noStack      = Rules{Name: "no-stack", AkaDora: true, OpenTanyao: true, KazoeYakuman: true, DoubleYakuman: true}
)

// scoreCase is a win to score. The situation is a ron by the South seat in
// the East round unless sit says otherwise (see parseSituation); rules nil
// is Default. want is "REASON" or "HAN han FU fu [YAKU] LIMIT TOTAL".
type scoreCase struct {
	name  string
	hand  string // concealed, without the winning tile
	melds string // see parseMelds
	win   string
	sit   string
	rules *Rules
	want  string
}

func summary(r *Result) string {
	if !r.Win {
		return r.Reason.String()
	}
	return fmt.Sprintf("%d han %d fu [%s] %v %d", r.Han, r.Fu, yakuString(r), r.Limit, r.Total)
}

func runScoreCases(t *testing.T, cases []scoreCase) {
	t.Helper()
	for _, tc := range cases {
		rules := tc.rules
		if rules == nil {
			rules = &Default
		}
		r := scoreOf(t, tc.hand, tc.melds, tc.win, tc.sit, rules)
		if got := summary(&r); got != tc.want {
			t.Errorf("%s: Score(%s %s +%s, %q, %s) = %s, want %s", tc.name, tc.hand, tc.melds, tc.win, tc.sit, rules.Name, got, tc.want)
		}
	}
}

// Hands used again and again below. base: 123m 456p 999s 55m + 78s, a
// closed hand with no yaku of its own; won on 6s it is ryanmen, and its fu
// are 20 + 10 closed ron + 8 concealed 999s = 38 -> 40 (30 on a tsumo: 20 +
// 2 + 8). pinfuHand: 123m 456m 234p 678s 99s waiting on 1m-4m.
const (
	baseHand  = "123m456p999s55m78s"
	pinfuHand = "23m456m234p678s99s"
)

func TestScoreYaku(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// Riichi and friends, closed only.
		{"no yaku", baseHand, "", "6s", "", nil, "no_yaku"},
		{"dora is not a yaku", baseHand, "", "6s", "dora=1m", nil, "no_yaku"},
		{"riichi", baseHand, "", "6s", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"double riichi replaces riichi", baseHand, "", "6s", "riichi double_riichi", nil, "2 han 40 fu [double_riichi 2] none 2600"},
		{"double riichi implies riichi", baseHand, "", "6s", "double_riichi ippatsu", nil, "3 han 40 fu [double_riichi 2, ippatsu 1] none 5200"},
		{"ippatsu", baseHand, "", "6s", "riichi ippatsu", nil, "2 han 40 fu [riichi 1, ippatsu 1] none 2600"},
		{"ippatsu needs riichi", baseHand, "", "6s", "ippatsu", nil, "no_yaku"},
		// Tsumo: 20 + 2 + 8 = 30 fu, 1 han: 240 -> 300 each, 500 from the dealer.
		{"menzen tsumo", baseHand, "", "6s", "tsumo", nil, "1 han 30 fu [menzen_tsumo 1] none 1100"},
		{"riichi on an open hand does not count", "456p999s55m78s", "chi:123m", "6s", "riichi", nil, "no_yaku"},
		{"no menzen tsumo when open", "456p999s55m78s", "chi:123m", "6s", "tsumo", nil, "no_yaku"},

		// Pinfu: 30 fu on a ron, 20 on a tsumo (no tsumo fu); closed, four
		// runs, a pair of no value, a ryanmen wait (riichi.wiki, "Pinfu").
		{"pinfu", pinfuHand, "", "1m", "", nil, "1 han 30 fu [pinfu 1] none 1000"},
		{"pinfu tsumo", pinfuHand, "", "4m", "tsumo", nil, "2 han 20 fu [menzen_tsumo 1, pinfu 1] none 1500"},
		// A value pair gives 2 fu: 20 + 10 + 2 = 32 -> 40.
		{"no pinfu: round wind pair", "23m456m234p678s11z", "", "1m", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"no pinfu: seat wind pair", "23m456m234p678s22z", "", "1m", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"no pinfu: dragon pair", "23m456m234p678s77z", "", "1m", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"pinfu: guest wind pair", "23m456m234p678s33z", "", "1m", "", nil, "1 han 30 fu [pinfu 1] none 1000"},
		{"no pinfu: kanchan", "13m456m234p678s99s", "", "2m", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"no pinfu: penchan", "12m456m234p678s99s", "", "3m", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"no pinfu: tanki", "123456m234p678s9s", "", "9s", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		{"no pinfu: open", "23m456m678s99s", "chi:234p", "1m", "", nil, "no_yaku"},
		// 20 + 10 + 16 (closed kan of simples) = 46 -> 50.
		{"no pinfu: closed kan", "23m456m678s99s", "ankan:2222p", "1m", "riichi", nil, "1 han 50 fu [riichi 1] none 1600"},
		// 34556m + 4m reads 345 456: the 4m is kanchan in 345m or ryanmen in
		// 456m; ryanmen gives pinfu (2 han 30 fu, 2000) over 1 han 40 fu.
		{"pinfu over kanchan", "34556m234p678s99s", "", "4m", "riichi", nil, "2 han 30 fu [riichi 1, pinfu 1] none 2000"},

		// Tanyao, open or closed (kuitan by the rules).
		{"tanyao pinfu", "234567m234p67s55s", "", "8s", "", nil, "2 han 30 fu [pinfu 1, tanyao 1] none 2000"},
		{"open tanyao", "234567m67s55s", "pon:222p", "8s", "", nil, "1 han 30 fu [tanyao 1] none 1000"},
		{"open tanyao without kuitan", "234567m67s55s", "pon:222p", "8s", "", &noOpenTanyao, "no_yaku"},
		{"closed tanyao without kuitan", "234567m222p67s55s", "", "8s", "", &noOpenTanyao, "1 han 40 fu [tanyao 1] none 1300"},
		{"no tanyao with a terminal", "234567m78s55s", "pon:222p", "9s", "", nil, "no_yaku"},

		// Iipeikou and ryanpeikou, closed only.
		{"iipeikou", "112233m456p55p78s", "", "9s", "", nil, "2 han 30 fu [pinfu 1, iipeikou 1] none 2000"},
		{"no iipeikou open", "112233m55p78s", "pon:777z", "9s", "", nil, "1 han 30 fu [yakuhai_chun 1] none 1000"},
		// 123m 123m 456p 456p 77s: ryanpeikou (3 han 40 fu: 20+10+2 tanki)
		// beats chiitoitsu (2 han 25 fu).
		{"ryanpeikou replaces iipeikou", "112233m445566p7s", "", "7s", "", nil, "3 han 40 fu [ryanpeikou 3] none 5200"},
		// 123m x4 + 77s: ryanpeikou (3 han 40 fu) beats the reading 111 222
		// 333 123 (sanankou, 20+10+8+4+4+2 = 48 -> 50 fu, 2 han).
		{"ryanpeikou of four identical runs", "111122223333m7s", "", "7s", "", nil, "3 han 40 fu [ryanpeikou 3] none 5200"},

		// Yakuhai.
		{"haku", "123m456p789s555z1s", "", "1s", "", nil, "1 han 40 fu [yakuhai_haku 1] none 1300"},
		{"hatsu", "123m456p789s1s", "pon:666z", "1s", "", nil, "1 han 30 fu [yakuhai_hatsu 1] none 1000"},
		{"chun", "123m456p789s1s", "kan:7777z", "1s", "", nil, "1 han 40 fu [yakuhai_chun 1] none 1300"},
		{"seat wind", "123m456p789s1s", "pon:222z", "1s", "", nil, "1 han 30 fu [yakuhai_seat_wind 1] none 1000"},
		{"round wind", "123m456p789s1s", "pon:111z", "1s", "", nil, "1 han 30 fu [yakuhai_round_wind 1] none 1000"},
		{"guest wind is no yaku", "123m456p789s1s", "pon:333z", "1s", "", nil, "no_yaku"},
		{"north in the north seat", "123m456p789s1s", "pon:444z", "1s", "seat=N", nil, "1 han 30 fu [yakuhai_seat_wind 1] none 1000"},
		// Double wind: the East seat in the East round; a dealer ron of 2 han
		// 30 fu: 30 x 16 = 480, x6 = 2880 -> 2900.
		{"double wind", "123m456p789s1s", "pon:111z", "1s", "seat=E", nil, "2 han 30 fu [yakuhai_seat_wind 1, yakuhai_round_wind 1] none 2900"},
		{"south round", "123m456p789s1s", "pon:222z", "1s", "seat=W round=S", nil, "1 han 30 fu [yakuhai_round_wind 1] none 1000"},

		// Haitei, houtei, rinshan, chankan.
		{"haitei", "23m456m678s99s", "chi:234p", "1m", "tsumo haitei", nil, "1 han 30 fu [haitei 1] none 1100"},
		{"haitei is a tsumo", "23m456m678s99s", "chi:234p", "1m", "haitei", nil, "no_yaku"},
		{"houtei", "23m456m678s99s", "chi:234p", "1m", "houtei", nil, "1 han 30 fu [houtei 1] none 1000"},
		// Rinshan: 20 + 2 tsumo + 8 open kan of 8p = 30.
		{"rinshan", "23m456m99s", "kan:8888p chi:234p", "1m", "tsumo rinshan", nil, "1 han 30 fu [rinshan 1] none 1100"},
		{"rinshan needs a kan", "23m456m678s99s", "chi:234p", "1m", "tsumo rinshan", nil, "no_yaku"},
		// "Rinshan kaihou cannot be combined with haitei" (riichi.wiki).
		{"rinshan is not haitei", "23m456m99s", "kan:8888p chi:234p", "1m", "tsumo rinshan haitei", nil, "1 han 30 fu [rinshan 1] none 1100"},
		// An open hand of 20 fu won by ron counts 30.
		{"chankan", "23m456m678s99s", "chi:234p", "1m", "chankan", nil, "1 han 30 fu [chankan 1] none 1000"},

		// Chiitoitsu: 25 fu.
		{"chiitoitsu", "1122m3344p5566s7z", "", "7z", "", nil, "2 han 25 fu [chiitoitsu 2] none 1600"},
		{"chiitoitsu tsumo", "1122m3344p5566s7z", "", "7z", "tsumo", nil, "3 han 25 fu [menzen_tsumo 1, chiitoitsu 2] none 3200"},
		{"chiitoitsu tanyao", "2233m4466p5588s7s", "", "7s", "riichi", nil, "4 han 25 fu [riichi 1, tanyao 1, chiitoitsu 2] none 6400"},
		{"chiitoitsu honitsu", "11335577m1122z5z", "", "5z", "", nil, "5 han 25 fu [chiitoitsu 2, honitsu 3] mangan 8000"},
		{"no chiitoitsu with four of a kind", "1111m3344p5566s7z", "", "7z", "", nil, "not_complete"},

		// Chanta and junchan, 1 han less when open.
		// 123m 789p 123s 999s 11z: 20 + 10 + 8 + 2 (round wind pair) + 2
		// (tanki) = 42 -> 50; 2 han 50 fu = 800 x 4 = 3200.
		{"chanta", "123m789p123s999s1z", "", "1z", "", nil, "2 han 50 fu [chanta 2] none 3200"},
		{"junchan", "123m789p123s999s1p", "", "1p", "", nil, "3 han 40 fu [junchan 3] none 5200"},
		{"open junchan", "789p123s999s1p", "chi:123m", "1p", "", nil, "2 han 30 fu [junchan 2] none 2000"},
		// All terminals and honours without a run is honroutou, not chanta:
		// 20 + 8 + 8 + 8 + 4 (open 999s) + 2 (round wind pair) + 2 = 52 -> 60.
		{"no chanta without a run", "111m999p111s1z", "pon:999s", "1z", "", nil, "6 han 60 fu [toitoi 2, sanankou 2, honroutou 2] haneman 12000"},

		// Ittsu.
		{"ittsu", "12345678m234p55s", "", "9m", "", nil, "3 han 30 fu [pinfu 1, ittsu 2] none 3900"},
		{"open ittsu", "45678m234p55s", "chi:123m", "9m", "", nil, "1 han 30 fu [ittsu 1] none 1000"},
		{"no ittsu across suits", "12345678m234p55s", "", "6m", "", nil, "1 han 30 fu [pinfu 1] none 1000"},

		// Sanshoku.
		{"sanshoku", "123m123p23s456s88p", "", "1s", "", nil, "3 han 30 fu [pinfu 1, sanshoku 2] none 3900"},
		{"open sanshoku", "123m23s456s88p", "chi:123p", "1s", "", nil, "1 han 30 fu [sanshoku 1] none 1000"},
		{"no sanshoku on 4s", "123m123p23s456s88p", "", "4s", "", nil, "1 han 30 fu [pinfu 1] none 1000"},

		// Sanshoku doukou, toitoi, sanankou, sankantsu.
		// 222m 222p(open) 222s 345m 99s: 20 + 4 + 2 + 4 = 30.
		{"sanshoku doukou", "222m222s45m99s", "pon:222p", "3m", "", nil, "2 han 30 fu [sanshoku_doukou 2] none 2000"},
		// 333z(open 4) 888p(open 2) 222m(4) 444s(4) 99p, tanki 2: 36 -> 40.
		{"toitoi", "222m444s9p", "pon:333z pon:888p", "9p", "", nil, "2 han 40 fu [toitoi 2] none 2600"},
		// 222m 333p 444s closed, 567m, 99s: 20 + 10 + 12 = 42 -> 50.
		{"sanankou", "222m333p444s56m99s", "", "7m", "", nil, "2 han 50 fu [sanankou 2] none 3200"},
		// A shanpon won by ron makes the triplet open (minkou): 20 + 10 + 4 +
		// 4 + 2 = 40, and only two concealed triplets. "The third must not be
		// completed off of another player's discard" (riichi.wiki, "Sanankou").
		{"no sanankou on a shanpon ron", "222m333p567m44s99s", "", "4s", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		// Tsumo: 20 + 2 + 4 + 4 + 4 = 34 -> 40, 3 han: 1280 -> 1300 and 2600.
		{"sanankou on a shanpon tsumo", "222m333p567m44s99s", "", "4s", "tsumo", nil, "3 han 40 fu [menzen_tsumo 1, sanankou 2] none 5200"},
		// 20 + 10 + 4 + 4 + 16 (closed kan) = 54 -> 60: 960 x 4 = 3840 -> 3900.
		{"closed kan counts as concealed", "222m333p56m99s", "ankan:4444s", "7m", "", nil, "2 han 60 fu [sanankou 2] none 3900"},
		// 2222m, 4444p closed (16 each), 6666s open (8), 456m, 99p tanki 2:
		// 20 + 16 + 16 + 8 + 2 = 62 -> 70; 2 han 70 fu: 1120 x 4 = 4480 -> 4500.
		{"sankantsu", "456m9p", "ankan:2222m ankan:4444p kan:6666s", "9p", "", nil, "2 han 70 fu [sankantsu 2] none 4500"},

		// Honroutou.
		{"honroutou toitoi sanankou", "111m999p111s9s", "pon:333z", "9s", "", nil, "6 han 50 fu [toitoi 2, sanankou 2, honroutou 2] haneman 12000"},
		{"honroutou chiitoitsu", "1199m1199p11s11z2z", "", "2z", "", nil, "4 han 25 fu [chiitoitsu 2, honroutou 2] none 6400"},

		// Shousangen: 555z 666z closed (8 each), 77z (2), 123m, 45p + 3p:
		// 20 + 10 + 8 + 8 + 2 = 48 -> 50; 4 han 50 fu is mangan.
		{"shousangen", "555z666z77z123m45p", "", "3p", "", nil, "4 han 50 fu [yakuhai_haku 1, yakuhai_hatsu 1, shousangen 2] mangan 8000"},

		// Honitsu and chinitsu.
		// 12m 45m 567m 999m 11z + 3m: ryanmen in 345m gives 20 + 10 + 8 + 2
		// = 40 fu, but penchan in 123m adds 2: 42 -> 50, and pays more.
		{"honitsu", "123m567m999m11z45m", "", "3m", "", nil, "3 han 50 fu [honitsu 3] none 6400"},
		{"open honitsu", "123m567m11z45m", "pon:999m", "3m", "", nil, "2 han 30 fu [honitsu 2] none 2000"},
		// 123 345 567 678 99: 6m is ryanmen in 678m (pinfu, 7 han) or
		// kanchan in 567m (6 han): both haneman, the more han is shown.
		{"chinitsu", "123345567m78m99m", "", "6m", "", nil, "7 han 30 fu [pinfu 1, chinitsu 6] haneman 12000"},
		{"open chinitsu", "345567m78m99m", "chi:123m", "6m", "", nil, "5 han 30 fu [chinitsu 5] mangan 8000"},
	})
}

func TestScoreDora(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// An indicator points at the next tile: 1m -> 2m.
		{"dora", baseHand, "", "6s", "riichi dora=1m", nil, "2 han 40 fu [riichi 1, dora 1] none 2600"},
		{"each indicator counts", baseHand, "", "6s", "riichi dora=1m1m", nil, "3 han 40 fu [riichi 1, dora 2] none 5200"},
		{"9 points at 1", baseHand, "", "6s", "riichi dora=9m", nil, "2 han 40 fu [riichi 1, dora 1] none 2600"},
		{"8s points at 9s x3", baseHand, "", "6s", "riichi dora=8s", nil, "4 han 40 fu [riichi 1, dora 3] mangan 8000"},
		{"no dora", baseHand, "", "6s", "riichi dora=3z", nil, "1 han 40 fu [riichi 1] none 1300"},
		// North points at East: the 11z pair is two dora.
		{"north points at east", "23m456m234p678s11z", "", "1m", "riichi dora=4z", nil, "3 han 40 fu [riichi 1, dora 2] none 5200"},
		{"west points at north", "23m456m234p678s44z", "", "1m", "riichi dora=3z", nil, "4 han 30 fu [riichi 1, pinfu 1, dora 2] none 7700"},
		// Chun points at haku: the haku triplet is three dora.
		{"chun points at haku", "123m456p789s555z1s", "", "1s", "dora=7z", nil, "4 han 40 fu [yakuhai_haku 1, dora 3] mangan 8000"},
		{"hatsu points at chun", "123m456p789s555z1s", "", "1s", "dora=6z", nil, "1 han 40 fu [yakuhai_haku 1] none 1300"},
		// The four tiles of a kan all count (kan dora are just more indicators).
		{"kan and kan dora", "123m456p789s1s", "kan:7777z", "1s", "dora=6z", nil, "5 han 40 fu [yakuhai_chun 1, dora 4] mangan 8000"},
		{"aka dora", "23m406m234p678s99s", "", "1m", "", nil, "2 han 30 fu [pinfu 1, aka_dora 1] none 2000"},
		{"aka dora off", "23m406m234p678s99s", "", "1m", "", &noAka, "1 han 30 fu [pinfu 1] none 1000"},
		{"red winning tile", "34m678m234p678s99s", "", "0m", "", nil, "2 han 30 fu [pinfu 1, aka_dora 1] none 2000"},
		{"red five in a meld", "234567m78s55s", "chi:340p", "9s", "houtei", nil, "2 han 30 fu [houtei 1, aka_dora 1] none 2000"},
		{"red and dora", "23m406m234p678s99s", "", "1m", "dora=4m", nil, "3 han 30 fu [pinfu 1, dora 1, aka_dora 1] none 3900"},
		{"ura with riichi", pinfuHand, "", "1m", "riichi ura=8s", nil, "4 han 30 fu [riichi 1, pinfu 1, ura_dora 2] none 7700"},
		{"no ura without riichi", pinfuHand, "", "1m", "ura=8s", nil, "1 han 30 fu [pinfu 1] none 1000"},
		{"ura with double riichi", pinfuHand, "", "1m", "double_riichi ura=8s", nil, "5 han 30 fu [double_riichi 2, pinfu 1, ura_dora 2] mangan 8000"},
		{"dora alone", "23m456m678s99s", "chi:234p", "1m", "dora=1m ura=1m", nil, "no_yaku"},
	})
}

func TestScoreYakuman(t *testing.T) {
	runScoreCases(t, []scoreCase{
		{"kokushi", "119m19p19s123456z", "", "7z", "", nil, "13 han 0 fu [kokushi 13] yakuman 32000"},
		// The 13-sided wait: all 13 kinds before the win.
		{"kokushi 13", "19m19p19s1234567z", "", "1m", "", nil, "26 han 0 fu [kokushi_13 26] yakuman 64000"},
		{"kokushi 13 tenhou rules", "19m19p19s1234567z", "", "1m", "", &Tenhou, "13 han 0 fu [kokushi_13 13] yakuman 32000"},
		{"kokushi dealer tsumo", "119m19p19s123456z", "", "7z", "seat=E tsumo", nil, "13 han 0 fu [kokushi 13] yakuman 48000"},
		{"kokushi, dora ignored", "119m19p19s123456z", "", "7z", "riichi dora=6z ura=8m", nil, "13 han 0 fu [kokushi 13] yakuman 32000"},

		{"suuankou tsumo", "111m222p333s44z55z", "", "4z", "tsumo", nil, "13 han 0 fu [suuankou 13] yakuman 32000"},
		// On a ron the fourth triplet is open, "thus invalidating the
		// yakuman" (riichi.wiki, "Suuankou"): toitoi and sanankou, 20 + 10 +
		// 8 + 4 + 4 + 4 (444z, open) + 2 (haku pair) = 52 -> 60, mangan.
		{"no suuankou on a shanpon ron", "111m222p333s44z55z", "", "4z", "", nil, "4 han 60 fu [toitoi 2, sanankou 2] mangan 8000"},
		{"suuankou tanki", "111m222p333s444z5z", "", "5z", "", nil, "26 han 0 fu [suuankou_tanki 26] yakuman 64000"},
		{"suuankou tanki tenhou rules", "111m222p333s444z5z", "", "5z", "", &Tenhou, "13 han 0 fu [suuankou_tanki 13] yakuman 32000"},
		{"suuankou with a closed kan", "111m222p44z55z", "ankan:3333s", "4z", "tsumo", nil, "13 han 0 fu [suuankou 13] yakuman 32000"},
		// 20 + 2 + 8 + 4 + 8 (444z) + 8 (open kan) + 2 (haku pair) = 52 -> 60.
		{"no suuankou with an open kan", "111m222p44z55z", "kan:3333s", "4z", "tsumo", nil, "4 han 60 fu [toitoi 2, sanankou 2] mangan 8000"},

		{"daisangen", "555z666z123m9p", "pon:777z", "9p", "", nil, "13 han 0 fu [daisangen 13] yakuman 32000"},
		{"shousuushii", "111z222z333z44z12m", "", "3m", "", nil, "13 han 0 fu [shousuushii 13] yakuman 32000"},
		{"daisuushii", "333z444z5m", "pon:111z pon:222z", "5m", "", nil, "26 han 0 fu [daisuushii 26] yakuman 64000"},
		{"daisuushii tenhou rules", "333z444z5m", "pon:111z pon:222z", "5m", "", &Tenhou, "13 han 0 fu [daisuushii 13] yakuman 32000"},
		{"tsuuiisou", "222z555z666z7z", "pon:111z", "7z", "", nil, "13 han 0 fu [tsuuiisou 13] yakuman 32000"},
		{"tsuuiisou seven pairs", "1122334455667z", "", "7z", "", nil, "13 han 0 fu [tsuuiisou 13] yakuman 32000"},
		{"chinroutou", "999m111p999p1s", "pon:111m", "1s", "", nil, "13 han 0 fu [chinroutou 13] yakuman 32000"},
		{"ryuuiisou", "223344s666s888s6z", "", "6z", "", nil, "13 han 0 fu [ryuuiisou 13] yakuman 32000"},
		{"ryuuiisou without hatsu", "22334444s666s88s", "", "8s", "", nil, "13 han 0 fu [ryuuiisou 13] yakuman 32000"},
		{"no ryuuiisou with 5s", "223344s555s888s6z", "", "6z", "", nil, "4 han 50 fu [iipeikou 1, honitsu 3] mangan 8000"},
		{"chuuren", "1112345678899m", "", "9m", "", nil, "13 han 0 fu [chuuren 13] yakuman 32000"},
		{"chuuren 9", "1112345678999m", "", "5m", "", nil, "26 han 0 fu [chuuren_9 26] yakuman 64000"},
		{"chuuren 9 on a terminal", "1112345678999p", "", "1p", "tsumo", nil, "26 han 0 fu [chuuren_9 26] yakuman 64000"},
		{"chuuren 9 tenhou rules", "1112345678999m", "", "5m", "", &Tenhou, "13 han 0 fu [chuuren_9 13] yakuman 32000"},
		{"suukantsu", "5z", "kan:1111m ankan:2222p kan:3333s kan:4444z", "5z", "", nil, "13 han 0 fu [suukantsu 13] yakuman 32000"},
		{"suukantsu suuankou tanki", "5z", "ankan:1111m ankan:2222p ankan:3333s ankan:4444z", "5z", "", nil, "39 han 0 fu [suuankou_tanki 26, suukantsu 13] yakuman 96000"},
		{"tenhou", pinfuHand, "", "1m", "seat=E tsumo tenhou", nil, "13 han 0 fu [tenhou 13] yakuman 48000"},
		{"chiihou", pinfuHand, "", "1m", "tsumo chiihou", nil, "13 han 0 fu [chiihou 13] yakuman 32000"},
		{"no tenhou for a non-dealer", pinfuHand, "", "1m", "tsumo tenhou", nil, "2 han 20 fu [menzen_tsumo 1, pinfu 1] none 1500"},
		{"no chiihou for the dealer", pinfuHand, "", "1m", "seat=E tsumo chiihou", nil, "2 han 20 fu [menzen_tsumo 1, pinfu 1] none 2100"},
		{"no tenhou on a ron", pinfuHand, "", "1m", "seat=E tenhou", nil, "1 han 30 fu [pinfu 1] none 1500"},

		// Stacking: suuankou tanki (2) and tsuuiisou (1).
		{"stacked", "111z222z555z666z7z", "", "7z", "", nil, "39 han 0 fu [suuankou_tanki 26, tsuuiisou 13] yakuman 96000"},
		{"stacked tenhou rules", "111z222z555z666z7z", "", "7z", "", &Tenhou, "26 han 0 fu [suuankou_tanki 13, tsuuiisou 13] yakuman 64000"},
		{"not stacked", "111z222z555z666z7z", "", "7z", "", &noStack, "26 han 0 fu [suuankou_tanki 26] yakuman 64000"},
		{"not stacked, first of equals", "555z666z111z2z", "pon:777z", "2z", "", &noStack, "13 han 0 fu [daisangen 13] yakuman 32000"},
		{"tenhou and kokushi 13", "19m19p19s1234567z", "", "1m", "seat=E tsumo tenhou", nil, "39 han 0 fu [kokushi_13 26, tenhou 13] yakuman 144000"},
	})
}

func TestScoreLimits(t *testing.T) {
	const kazoeHand = "1122335678999m" // + 4m: 123 123 456 789 99, all man
	runScoreCases(t, []scoreCase{
		// riichi pinfu tanyao dora: 4 han 30 fu = 1920 x 4 = 7680 -> 7700.
		{"4 han 30 fu", "234567m234p67s55s", "", "8s", "riichi dora=1p", nil, "4 han 30 fu [riichi 1, pinfu 1, tanyao 1, dora 1] none 7700"},
		{"4 han 30 fu kiriage", "234567m234p67s55s", "", "8s", "riichi dora=1p", &kiriage, "4 han 30 fu [riichi 1, pinfu 1, tanyao 1, dora 1] mangan 8000"},
		{"4 han 30 fu dealer", "234567m234p67s55s", "", "8s", "riichi dora=1p seat=E", nil, "4 han 30 fu [riichi 1, pinfu 1, tanyao 1, dora 1] none 11600"},
		// 1920: 3900 from the dealer, 2000 from each other seat.
		{"4 han 30 fu tsumo", baseHand, "", "6s", "tsumo riichi dora=1m1m", nil, "4 han 30 fu [riichi 1, menzen_tsumo 1, dora 2] none 7900"},
		// 3 han 60 fu: 20 + 10 + 32 (closed kan of 9p) = 62 -> 70 is
		// mangan; with a kan of 2p: 20 + 10 + 16 + 8 (999s) = 54 -> 60.
		{"3 han 60 fu", "123m999s55m78s", "ankan:2222p", "6s", "riichi dora=4m", nil, "3 han 60 fu [riichi 1, dora 2] none 7700"},
		{"3 han 60 fu kiriage", "123m999s55m78s", "ankan:2222p", "6s", "riichi dora=4m", &kiriage, "3 han 60 fu [riichi 1, dora 2] mangan 8000"},
		{"3 han 70 fu", "123m999s55m78s", "ankan:9999p", "6s", "riichi dora=4m", nil, "3 han 70 fu [riichi 1, dora 2] mangan 8000"},
		{"4 han 40 fu dealer", baseHand, "", "6s", "riichi dora=8s seat=E", nil, "4 han 40 fu [riichi 1, dora 3] mangan 12000"},
		{"mangan dealer tsumo", baseHand, "", "6s", "seat=E tsumo riichi dora=8s", nil, "5 han 30 fu [riichi 1, menzen_tsumo 1, dora 3] mangan 12000"},
		{"haneman", baseHand, "", "6s", "riichi dora=8s8s", nil, "7 han 40 fu [riichi 1, dora 6] haneman 12000"},
		{"baiman", baseHand, "", "6s", "riichi dora=8s8s1m", nil, "8 han 40 fu [riichi 1, dora 7] baiman 16000"},
		{"baiman 10", baseHand, "", "6s", "riichi dora=8s8s8s", nil, "10 han 40 fu [riichi 1, dora 9] baiman 16000"},
		{"sanbaiman", kazoeHand, "", "4m", "tsumo riichi", nil, "12 han 20 fu [riichi 1, menzen_tsumo 1, pinfu 1, iipeikou 1, ittsu 2, chinitsu 6] sanbaiman 24000"},
		{"kazoe yakuman", kazoeHand, "", "4m", "tsumo riichi dora=8m", nil, "15 han 20 fu [riichi 1, menzen_tsumo 1, pinfu 1, iipeikou 1, ittsu 2, chinitsu 6, dora 3] kazoe_yakuman 32000"},
		{"no kazoe: sanbaiman", kazoeHand, "", "4m", "tsumo riichi dora=8m", &noKazoe, "15 han 20 fu [riichi 1, menzen_tsumo 1, pinfu 1, iipeikou 1, ittsu 2, chinitsu 6, dora 3] sanbaiman 24000"},
		// Honba and sticks: 1000 + 2 x 300 + 1000.
		{"honba and sticks ron", pinfuHand, "", "1m", "honba=2 sticks=1", nil, "1 han 30 fu [pinfu 1] none 2600"},
		// Tsumo 2 han 20 fu: 700 + 200 from the dealer, 2 x (400 + 200), + 2000.
		{"honba and sticks tsumo", pinfuHand, "", "1m", "tsumo honba=2 sticks=2", nil, "2 han 20 fu [menzen_tsumo 1, pinfu 1] none 4100"},
	})
}

// TestScoreWaitChoice checks that the place of the winning tile that pays
// most is taken when it fits several.
func TestScoreWaitChoice(t *testing.T) {
	runScoreCases(t, []scoreCase{
		// 34556m + 4m: ryanmen (pinfu) or kanchan; 111s and an East pair
		// (round wind) rule pinfu out: ryanmen is 20 + 10 + 8 + 2 = 40 fu,
		// kanchan 42 -> 50.
		{"kanchan over ryanmen", "34556m111s234p11z", "", "4m", "riichi", nil, "1 han 50 fu [riichi 1] none 1600"},
		{"ryanmen over kanchan", "34556m234p678s99s", "", "4m", "riichi", nil, "2 han 30 fu [riichi 1, pinfu 1] none 2000"},
		// 33345s + 3s: the 3s completes 345s (ryanmen), keeping 333s
		// concealed for sanankou, rather than a triplet won by ron.
		{"run over triplet keeps sanankou", "111m222p33345s77s", "", "3s", "", nil, "2 han 50 fu [sanankou 2] none 3200"},
		// 12m 45m 567m + 3m: penchan beats ryanmen by 2 fu across 40.
		{"penchan over ryanmen", "123m567m999m11z45m", "", "3m", "", nil, "3 han 50 fu [honitsu 3] none 6400"},
		// 1234m + 4m is 123m + tanki 44m; no pinfu.
		{"nobetan is tanki", "1234m456p678s999s", "", "4m", "riichi", nil, "1 han 40 fu [riichi 1] none 1300"},
		// 111222333m + pair: three triplets (sanankou) or three runs (123m x3
		// is one iipeikou). Closed ron on 5p tanki:
		// triplets: 20 + 10 + 8 + 4 + 4 + 2 = 48 -> 50 fu, sanankou 2 +
		// riichi 1 = 3 han (6400); runs: riichi, iipeikou, 40 fu (2600).
		{"triplets over runs", "111222333m789s5p", "", "5p", "riichi", nil, "3 han 50 fu [riichi 1, sanankou 2] none 6400"},
		// Seven pairs or ryanpeikou: 223344m556677p88s; ryanpeikou and tanyao
		// (4 han 40 fu, tanki 2 fu) beat chiitoitsu and tanyao (3 han 25 fu).
		{"ryanpeikou over chiitoitsu", "223344m556677p8s", "", "8s", "", nil, "4 han 40 fu [tanyao 1, ryanpeikou 3] mangan 8000"},
	})
}
