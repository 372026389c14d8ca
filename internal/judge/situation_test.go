package judge

import (
	"errors"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

func TestCheckSituation(t *testing.T) {
	tests := []struct {
		melds, sit string
		ok         bool
	}{
		{"", "", true},
		{"", "riichi ippatsu tsumo haitei", true},
		{"", "double_riichi ippatsu", true},
		{"", "seat=E tsumo tenhou", true},
		{"", "tsumo chiihou", true},
		{"ankan:1111z", "riichi", true},
		{"ankan:1111z", "tsumo rinshan", true},
		{"", "houtei", true},
		{"", "chankan", true},
		{"chi:123m", "riichi", false},
		{"chi:123m", "double_riichi", false},
		{"", "ippatsu", false},
		{"ankan:1111z", "riichi ippatsu tsumo rinshan", false},
		{"", "haitei", false},
		{"ankan:1111z", "rinshan", false},
		{"", "tsumo rinshan", false},
		{"kan:1111z", "tsumo rinshan haitei", false},
		{"", "tsumo houtei", false},
		{"", "tsumo chankan", false},
		{"", "chankan houtei", false},
		{"", "tsumo tenhou", false},
		{"", "seat=E tenhou", false},
		{"pon:111z", "seat=E tsumo tenhou", false},
		{"", "seat=E tsumo chiihou", false},
		{"", "tsumo chiihou riichi", false},
		{"", "honba=-1", false},
	}
	for _, tt := range tests {
		h := &Hand{Melds: parseMelds(t, tt.melds)}
		err := CheckSituation(h, parseSituation(t, tt.sit))
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrSituation)) {
			t.Errorf("CheckSituation(%s, %q) = %v, want ok %v", tt.melds, tt.sit, err, tt.ok)
		}
	}
	if err := CheckSituation(&Hand{}, &Situation{SeatWind: tile.Wind(7)}); !errors.Is(err, ErrSituation) {
		t.Errorf("CheckSituation with wind 7 = %v, want ErrSituation", err)
	}
}
