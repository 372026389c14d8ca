package mcr

import (
	"strings"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// situationOf reads flags written as words: tsumo, last, rinshan, chankan,
// haitei, houtei, seat=S, round=W, flowers=N.
func situationOf(t testing.TB, flags string) Situation {
	t.Helper()
	var s Situation
	for _, f := range strings.Fields(flags) {
		k, v, _ := strings.Cut(f, "=")
		switch k {
		case "tsumo":
			s.Tsumo = true
		case "last":
			s.LastTile = true
		case "rinshan":
			s.Rinshan = true
		case "chankan":
			s.Chankan = true
		case "haitei":
			s.Haitei = true
		case "houtei":
			s.Houtei = true
		case "seat", "round":
			w, err := tile.ParseWind(v)
			if err != nil {
				t.Fatalf("flag %q: %v", f, err)
			}
			if k == "seat" {
				s.SeatWind = w
			} else {
				s.RoundWind = w
			}
		case "flowers":
			s.Flowers = int(v[0] - '0')
		default:
			t.Fatalf("unknown flag %q", f)
		}
	}
	return s
}

// scoreCase is a hand and what it is worth. The fans are written in the
// rule book's order, "name*count" when a fan counts more than once.
type scoreCase struct {
	hand, win, melds, flags string
	fans                    string
	total                   int
}

func (c scoreCase) run(t *testing.T) {
	t.Helper()
	h, w := handOf(t, c.hand, c.win, c.melds)
	s := situationOf(t, c.flags)
	r := Score(&h, w, &s)
	if got := fanList(&r); got != c.fans || r.Total != c.total {
		t.Errorf("Score(%s + %s [%s] %s) = %d: %s\n                      want %d: %s", c.hand, c.win, c.melds, c.flags, r.Total, got, c.total, c.fans)
	}
	if !r.Win && c.fans != "" {
		t.Errorf("Score(%s + %s) is not a win", c.hand, c.win)
	}
	sum := 0
	for _, l := range r.Fans() {
		sum += l.Points
	}
	if sum != r.Total || r.TotalWithoutFlowers != r.Total-r.Count(FlowerTiles) ||
		r.MeetsMinimum != (r.TotalWithoutFlowers >= MinimumFan) {
		t.Errorf("Score(%s + %s): totals %d/%d/%v do not add up (sum %d)", c.hand, c.win, r.Total, r.TotalWithoutFlowers, r.MeetsMinimum, sum)
	}
}

// scoreCases holds a worked example for each family of fans. The comment
// above each group says how the hand reads.
var scoreCases = map[string][]scoreCase{
	// Winds and dragons. 111z 222z 333z 44z(+4z) 55z: the four wind pungs
	// are big four winds, which leaves out all pungs, the pungs of honours
	// and the wind fans; all honours on top. The East pung... all four are
	// concealed but 444z was completed by a discard, so three concealed
	// pungs. A three-dragon hand drops the dragon pungs; two dragon pungs
	// and a dragon pair make little three dragons.
	"winds and dragons": {
		{"111z222z333z44z55z", "4z", "", "", "big_four_winds all_honors three_concealed_pungs concealed_hand", 170},
		{"222z333z444z123m5z", "5z", "", "", "three_concealed_pungs big_three_winds half_flush outside_hand concealed_hand single_wait", 41},
		{"555z666z77z123m99m", "7z", "", "tsumo", "big_three_dragons three_concealed_pungs half_flush outside_hand fully_concealed_hand", 118},
		{"5m", "5m", "pon:555z pon:666z pon:777z pon:999m", "", "big_three_dragons all_pungs half_flush melded_hand pung_of_terminals_or_honors", 107},
		{"2z", "2z", "pon:111z pon:333z pon:444z pon:888p", "", "little_four_winds all_pungs half_flush melded_hand prevalent_wind seat_wind", 86},
		{"123m456p789s2z", "2z", "pon:111z", "seat=S", "mixed_straight prevalent_wind single_wait", 11},
		{"123m456p66z77z", "7z", "pon:555z", "", "little_three_dragons one_voided_suit", 65},
	},
	// Special forms. 11 22 33 44 55 66 7m + 7m is seven shifted pairs
	// and nothing else of the pairs; 1111 2222 33 4444m + 3m... reads
	// only as seven pairs (four of a kind are two pairs), with the tile
	// hogs. Thirteen orphans, honours and knitted tiles (lesser with nine
	// numbers is also a knitted straight; greater has all seven honours),
	// the knitted straight with a set and a pair, and nine gates with
	// what the winning tile adds.
	"special forms": {
		{"11m22m33m44m55m66m7m", "7m", "", "", "seven_shifted_pairs", 88},
		{"22m33m44m55m66m77m8m", "8m", "", "", "seven_shifted_pairs all_simples", 90},
		{"1111m2222m33m444m", "4m", "", "", "seven_pairs full_flush lower_four tile_hog*3", 66},
		{"19m19p19s1234567z", "7z", "", "", "thirteen_orphans", 88},
		{"147m258p369s1234z", "6z", "", "", "lesser_honors_and_knitted_tiles knitted_straight", 24},
		{"1234567z147m258s", "3p", "", "tsumo", "greater_honors_and_knitted_tiles self_drawn", 25},
		{"147m258s369p45m22z", "6m", "", "", "knitted_straight concealed_hand", 14},
		{"147m258s369p111z2z", "2z", "", "", "knitted_straight prevalent_wind seat_wind concealed_hand single_wait", 19},
		{"147m258s369p1z", "1z", "chi:789m", "tsumo", "knitted_straight single_wait self_drawn", 14},
		{"1112345678999m", "5m", "", "", "nine_gates two_concealed_pungs pung_of_terminals_or_honors", 91},
		{"1112345678999p", "9p", "", "tsumo", "nine_gates pure_straight tile_hog self_drawn", 107},
	},
	// Pure chows: 123 123 789 789m with 55m is pure terminal chows (not
	// also seven pairs, full flush or all chows). Four chows a step apart,
	// four identical chows (not also tile hogs), a straight, and three
	// shifted chows.
	"pure chows": {
		{"123789m123789m5m", "5m", "", "", "pure_terminal_chows concealed_hand single_wait", 67},
		{"123789m123789s5p", "5p", "", "", "three_suited_terminal_chows concealed_hand single_wait", 19},
		{"123m234m345m456m5m", "5m", "", "", "four_pure_shifted_chows full_flush concealed_hand all_chows tile_hog", 62},
		{"123m345m567m789m1m", "1m", "", "", "four_pure_shifted_chows full_flush concealed_hand all_chows", 60},
		{"1111m2222m3333m4m", "4m", "", "", "quadruple_chow full_flush lower_four concealed_hand all_chows", 88},
		{"123456789p1156s", "4s", "", "", "pure_straight concealed_hand all_chows mixed_double_chow one_voided_suit", 22},
		{"123p345p567p11z22z", "2z", "", "", "pure_shifted_chows half_flush concealed_hand pung_of_terminals_or_honors", 25},
	},
	// Mixed chows and the account-once rule: 123m 123p 123s and 789s
	// is a mixed triple chow, and the fourth chow adds one fan only.
	// 123 789m 123 78s: four two-chow fans are possible, three count.
	// 234 567s 234 567p: two mixed double chows and one short straight
	// (not two of each); 234s 234 234 567p: one each of pure double,
	// mixed double and short straight.
	"mixed chows": {
		{"123m123p123s23s55z", "4s", "", "", "mixed_triple_chow concealed_hand", 10},
		{"123m123p123s78s55z", "9s", "", "", "mixed_triple_chow outside_hand concealed_hand two_terminal_chows", 15},
		{"12m456p789s22z333z", "3m", "", "", "mixed_straight concealed_hand pung_of_terminals_or_honors edge_wait", 12},
		{"234m345p456s22p33s", "3s", "", "", "mixed_shifted_chows concealed_hand all_simples", 10},
		{"345m345s345s345p4p", "4p", "", "", "mixed_triple_chow concealed_hand all_chows all_simples pure_double_chow closed_wait", 16},
		{"123789m12378s55s", "9s", "", "", "concealed_hand all_chows mixed_double_chow*2 two_terminal_chows one_voided_suit", 8},
		{"123m234m345s567s8s", "8s", "", "", "concealed_hand all_chows one_voided_suit", 5},
		{"234567s234567p9m", "9m", "", "", "concealed_hand all_chows mixed_double_chow*2 short_straight single_wait", 8},
		{"234s223344567p9m", "9m", "", "", "concealed_hand all_chows pure_double_chow mixed_double_chow short_straight single_wait", 8},
	},
	// Pungs: shifted pungs across suits, even pungs, double pungs; a pung
	// completed on a discard is melded, so it is not a concealed pung.
	"pungs": {
		{"111m222p333s456s7s", "7s", "", "", "three_concealed_pungs mixed_shifted_pungs concealed_hand pung_of_terminals_or_honors no_honors", 28},
		{"222m444m666p88s44s", "4s", "", "", "all_even_pungs three_concealed_pungs concealed_hand double_pung", 44},
		{"222m222p222s456s8s", "8s", "", "", "triple_pung three_concealed_pungs concealed_hand all_simples single_wait", 37},
		{"111999m111p999s1z", "1z", "", "", "four_concealed_pungs all_terminals_and_honors double_pung*2 single_wait", 101},
		{"1112223334m", "4m", "ankan:5555z", "tsumo rinshan", "four_concealed_pungs pure_shifted_pungs out_with_replacement_tile half_flush dragon_pung concealed_kong pung_of_terminals_or_honors", 107},
		{"1234444555677p", "7p", "", "", "full_flush concealed_hand tile_hog short_straight", 29},
	},
	// Kongs: four kongs with two concealed (two concealed pungs too);
	// two concealed kongs are not also two concealed pungs; one melded and
	// one concealed kong are counted each on its own.
	"kongs": {
		{"2z", "2z", "kan:1111z kan:3333z ankan:4444z ankan:8888p", "tsumo rinshan", "four_kongs little_four_winds out_with_replacement_tile half_flush prevalent_wind seat_wind two_concealed_pungs", 172},
		{"23s99s456p", "4s", "kan:2222m ankan:8888p", "", "concealed_kong melded_kong no_honors", 4},
		{"123s456s7s", "7s", "ankan:2222m ankan:8888p", "", "two_concealed_kongs concealed_hand short_straight no_honors", 10},
		{"555s6s", "6s", "kan:1111z kan:2222m ankan:9999p", "", "three_kongs all_pungs prevalent_wind seat_wind two_concealed_pungs pung_of_terminals_or_honors", 45},
	},
	// Ranges and sets of traits: tiles 6-9 only with a 6 (upper four); a
	// 5 in every set and the pair (all five, which is all simples already);
	// reversible tiles; all five types of tile.
	"ranges and traits": {
		{"678m789p789s99s66s", "6s", "", "", "upper_four concealed_hand mixed_double_chow pung_of_terminals_or_honors", 16},
		{"345m456p345s11m22m", "2m", "", "", "concealed_hand mixed_double_chow no_honors", 4},
		{"456m456p555s345s5m", "5m", "", "", "all_five concealed_hand tile_hog mixed_double_chow closed_wait", 22},
		{"123p345p888s99s55z", "9s", "", "", "reversible_tiles concealed_hand pung_of_terminals_or_honors", 11},
		{"123m567p11z55z", "5z", "chi:789s", "", "all_types dragon_pung", 8},
	},
	// How the hand was won: last tile of the wall, last of its kind,
	// robbing a kong, and the waits.
	"winning": {
		{"12m456p789s22z333z", "3m", "", "tsumo haitei", "mixed_straight last_tile_draw fully_concealed_hand pung_of_terminals_or_honors edge_wait", 22},
		{"46m456p789s222z33z", "5m", "", "last", "last_tile concealed_hand mixed_double_chow pung_of_terminals_or_honors closed_wait", 9},
		{"45m456p789s22z", "3m", "pon:333z", "chankan", "robbing_the_kong pung_of_terminals_or_honors", 9},
		{"45m456p789s22z", "6m", "pon:333z", "", "mixed_double_chow pung_of_terminals_or_honors", 2},
		{"123m456p789s1299s", "3s", "", "flowers=3", "mixed_straight concealed_hand all_chows mixed_double_chow edge_wait flower_tiles*3", 17},
	},
}

func TestScore(t *testing.T) {
	for family, cases := range scoreCases {
		t.Run(family, func(t *testing.T) {
			for _, c := range cases {
				c.run(t)
			}
		})
	}
}

func TestScoreNotComplete(t *testing.T) {
	for _, c := range []struct{ hand, win, melds string }{
		{"123m456p789s1299s", "4s", ""},
		{"1111m2222m3333m4m", "9m", ""},
		{"147m258s369p1234z", "1m", ""},
		{"123m", "4m", "pon:111z pon:222z pon:333z"}, // 3 tiles beside 3 melds: wrong size
	} {
		h, w := handOf(t, c.hand, c.win, c.melds)
		var s Situation
		if r := Score(&h, w, &s); r.Win || r.Total != 0 || len(r.Fans()) != 0 {
			t.Errorf("Score(%s + %s [%s]) = win %v %d, want no win", c.hand, c.win, c.melds, r.Win, r.Total)
		}
	}
}
