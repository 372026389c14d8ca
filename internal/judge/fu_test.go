package judge

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// TestFu checks each source of fu before rounding, after riichi.wiki's
// "Fu": 20 to start, 10 for a closed ron, 2 for a tsumo (not with pinfu),
// sets by kind and openness, 2 for a kanchan, penchan or tanki wait, 2 per
// value of the pair; seven pairs 25 flat; an open hand of 20 counts 30. Houtei (on a ron) and
// haitei (on a tsumo) give the hands a yaku without touching their fu.
func TestFu(t *testing.T) {
	tests := []struct {
		name             string
		hand, melds, win string
		sit              string
		raw, fu          int
	}{
		{"pinfu ron: 20 + 10 closed ron", pinfuHand, "", "1m", "houtei", 30, 30},
		{"pinfu tsumo: no tsumo fu", pinfuHand, "", "1m", "tsumo haitei", 20, 20},
		{"open pinfu shape ron: 20 counts 30", "23m456m678s99s", "chi:234p", "1m", "houtei", 20, 30},
		{"open pinfu shape tsumo: 20 + 2", "23m456m678s99s", "chi:234p", "1m", "tsumo haitei", 22, 30},
		{"closed tsumo: 20 + 2 + 8", baseHand, "", "6s", "tsumo", 30, 30},
		{"closed ron: 20 + 10 + 8", baseHand, "", "6s", "houtei", 38, 40},

		{"open pon of simples: 2", "234567m78s55s", "pon:222p", "9s", "houtei", 22, 30},
		{"open pon of terminals: 4", "234567m78s55s", "pon:999p", "9s", "houtei", 24, 30},
		{"open pon of honours: 4", "234567m78s55s", "pon:333z", "9s", "houtei", 24, 30},
		{"closed triplet of simples: 4", "234567m222p78s55s", "", "9s", "houtei", 34, 40},
		{"closed triplet of terminals: 8", "234567m111p78s55s", "", "9s", "houtei", 38, 40},
		{"open kan of simples: 8", "234567m78s55s", "kan:2222p", "9s", "houtei", 28, 30},
		{"open kan of terminals: 16", "234567m78s55s", "kan:9999p", "9s", "houtei", 36, 40},
		{"added kan is open: 8", "234567m78s55s", "addkan:2222p", "9s", "houtei", 28, 30},
		{"closed kan of simples: 16", "234567m78s55s", "ankan:2222p", "9s", "houtei", 46, 50},
		{"closed kan of honours: 32", "234567m78s55s", "ankan:1111z", "9s", "houtei", 62, 70},

		{"dragon pair: 2", "23m456m234p678s55z", "", "1m", "houtei", 32, 40},
		{"seat wind pair: 2", "23m456m234p678s22z", "", "1m", "houtei", 32, 40},
		{"round wind pair: 2", "23m456m234p678s11z", "", "1m", "houtei", 32, 40},
		{"double wind pair: 4", "23m456m234p678s11z", "", "1m", "houtei seat=E", 34, 40},
		{"guest wind pair: 0 (pinfu)", "23m456m234p678s33z", "", "1m", "houtei", 30, 30},

		{"kanchan: 2", "13m456m234p678s99s", "", "2m", "houtei", 32, 40},
		{"penchan 12: 2", "12m456m234p678s99s", "", "3m", "houtei", 32, 40},
		{"penchan 89: 2", "89m456m234p678s99s", "", "7m", "houtei", 32, 40},
		{"tanki: 2", "123456m234p678s9s", "", "9s", "houtei", 32, 40},
		{"shanpon ron: the triplet is open", "222m333p567m44s99s", "", "4s", "houtei", 40, 40},
		{"shanpon tsumo: the triplet is closed", "222m333p567m44s99s", "", "4s", "tsumo haitei", 34, 40},
		// 20 + 10 + 4 + 4 + 4 (999s won by ron) = 42.
		{"shanpon ron of terminals: 4", "222m333p567m99s44s", "", "9s", "houtei", 42, 50},

		{"rinshan keeps the tsumo fu", "23m456m99s", "kan:8888p chi:234p", "1m", "tsumo rinshan", 30, 30},
		{"chiitoitsu: 25", "1122m3344p5566s7z", "", "7z", "tsumo", 25, 25},
		// 20 + 16 + 16 + 8 + 2 (tanki) = 62.
		{"three kans", "456m9p", "ankan:2222m ankan:4444p kan:6666s", "9p", "houtei", 62, 70},
	}
	for _, tt := range tests {
		h := &Hand{Concealed: tile.MustParse(tt.hand), Melds: parseMelds(t, tt.melds)}
		w, _ := tile.ParseTile(tt.win)
		var sc scorer
		best, reason := sc.best(h, w, parseSituation(t, tt.sit), &Default)
		if reason != ReasonNone {
			t.Errorf("%s: %s %s +%s is %v", tt.name, tt.hand, tt.melds, tt.win, reason)
			continue
		}
		if best.rawFu != tt.raw || best.fu != tt.fu {
			t.Errorf("%s: fu(%s %s +%s, %q) = %d -> %d, want %d -> %d", tt.name, tt.hand, tt.melds, tt.win, tt.sit, best.rawFu, best.fu, tt.raw, tt.fu)
		}
	}
}
