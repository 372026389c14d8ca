package classical

import (
	"errors"
	"testing"
)

// TestScoreLines scores a hand for every line of the table (each test's
// comment names the line it is about) and checks the lines, the points,
// the doubles and the score.
func TestScoreLines(t *testing.T) {
	tests := []struct {
		line    string
		lines   string
		base    int
		doubles int
		score   int
	}{
		// mah_jong alone: chows and a plain pair on a discard.
		{"123m456p789s234s5m | 5m", "mah_jong 20", 20, 0, 20},
		// self_drawn.
		{"123m456p789s234s5m | 5m tsumo", "mah_jong 20, self_drawn 2", 22, 0, 22},
		// exposed_minor_pung (a melded pung of 2-8).
		{"123m456p789s5m pung:222s | 5m", "mah_jong 20, exposed_minor_pung 2", 22, 0, 22},
		// concealed_minor_pung.
		{"123m456p222s789s5m | 5m", "mah_jong 20, concealed_minor_pung 4", 24, 0, 24},
		// exposed_major_pung (a melded pung of terminals).
		{"123m456p789s5m pung:111s | 5m", "mah_jong 20, exposed_major_pung 4", 24, 0, 24},
		// concealed_major_pung.
		{"123m456p999s789s5m | 5m", "mah_jong 20, concealed_major_pung 8", 28, 0, 28},
		// A pung completed by the winning discard is exposed...
		{"123m456p789s22s55m | 2s", "mah_jong 20, exposed_minor_pung 2", 22, 0, 22},
		// ...and concealed when self-drawn.
		{"123m456p789s22s55m | 2s tsumo", "mah_jong 20, self_drawn 2, concealed_minor_pung 4", 26, 0, 26},
		// exposed_minor_kong, concealed_minor_kong.
		{"123m456p789s5m kong:2222s | 5m", "mah_jong 20, exposed_minor_kong 8", 28, 0, 28},
		{"123m456p789s5m ckong:2222s | 5m", "mah_jong 20, concealed_minor_kong 16", 36, 0, 36},
		// exposed_major_kong, concealed_major_kong.
		{"123m456p789s5m kong:9999p | 5m", "mah_jong 20, exposed_major_kong 16", 36, 0, 36},
		{"123m456p789s5m ckong:9999p | 5m", "mah_jong 20, concealed_major_kong 32", 52, 0, 52},
		// dragon_pair.
		{"123m456p789s234s6z | 6z", "mah_jong 20, dragon_pair 2", 22, 0, 22},
		// seat_wind_pair, round_wind_pair, and both for a double wind.
		{"123m456p789s234s2z | 2z seat=S", "mah_jong 20, seat_wind_pair 2", 22, 0, 22},
		{"123m456p789s234s2z | 2z round=S", "mah_jong 20, round_wind_pair 2", 22, 0, 22},
		{"123m456p789s234s1z | 1z", "mah_jong 20, seat_wind_pair 2, round_wind_pair 2", 24, 0, 24},
		// A pair of another wind scores nothing.
		{"123m456p789s234s4z | 4z", "mah_jong 20", 20, 0, 20},
		// bonus_tile: 4 each (a flower and a season of other seats).
		{"123m456p789s234s5m | 5m seat=S bonus=3f8f", "mah_jong 20, bonus_tile x2 8", 28, 0, 28},
		// dragon_pung: a double each, concealed or melded.
		{"123m456p555z7z pung:666z | 7z", "mah_jong 20, exposed_major_pung 4, concealed_major_pung 8, dragon_pair 2, dragon_pung x2 2d", 34, 2, 136},
		// seat_wind_pung, round_wind_pung.
		{"123m456p789s7m pung:222z | 7m seat=S", "mah_jong 20, exposed_major_pung 4, seat_wind_pung 1d", 24, 1, 48},
		{"123m456p789s7m pung:333z | 7m round=W", "mah_jong 20, exposed_major_pung 4, round_wind_pung 1d", 24, 1, 48},
		{"123m456p789s7m pung:111z | 7m", "mah_jong 20, exposed_major_pung 4, seat_wind_pung 1d, round_wind_pung 1d", 24, 2, 96},
		// own_flower, own_season: the West seat's are 3f and 7f.
		{"123m456p789s234s5m | 5m seat=W bonus=3f", "mah_jong 20, bonus_tile 4, own_flower 1d", 24, 1, 48},
		{"123m456p789s234s5m | 5m seat=W bonus=7f", "mah_jong 20, bonus_tile 4, own_season 1d", 24, 1, 48},
		// all_flowers, all_seasons (besides the own one).
		{"123m456p789s234s5m | 5m seat=N bonus=1234f", "mah_jong 20, bonus_tile x4 16, own_flower 1d, all_flowers 2d", 36, 3, 288},
		{"123m456p789s234s5m | 5m seat=N bonus=5678f", "mah_jong 20, bonus_tile x4 16, own_season 1d, all_seasons 2d", 36, 3, 288},
		// no_chows: pungs and a pair only; the pungs of 2-4m also read as
		// chows, and the reading as pungs pays more.
		{"222333444m666p5s | 5s", "mah_jong 20, concealed_minor_pung x4 16, no_chows 1d", 36, 1, 72},
		// one_suit_with_honours.
		{"123m456m789m23m33z | 1m seat=N", "mah_jong 20, one_suit_with_honours 1d", 20, 1, 40},
		// one_suit: three doubles.
		{"123m456m789m23m55m | 1m", "mah_jong 20, one_suit 3d", 20, 3, 160},
		// terminals_and_honours (with no_chows, as it must).
		{"111m999p1s pung:999s pung:444z | 1s", "mah_jong 20, exposed_major_pung x2 8, concealed_major_pung x2 16, no_chows 1d, terminals_and_honours 1d", 44, 2, 176},
		// last_tile: the last tile of the wall, or the last discard.
		{"123m456p789s234s5m | 5m tsumo haitei", "mah_jong 20, self_drawn 2, last_tile 1d", 22, 1, 44},
		{"123m456p789s234s5m | 5m houtei", "mah_jong 20, last_tile 1d", 20, 1, 40},
		// supplemental_tile: self-drawn on a kong's replacement.
		{"123m456p789s5m kong:2222s | 5m tsumo rinshan", "mah_jong 20, self_drawn 2, exposed_minor_kong 8, supplemental_tile 1d", 30, 1, 60},
		// robbing_the_kong.
		{"123m456p789s234s5m | 5m chankan", "mah_jong 20, robbing_the_kong 1d", 20, 1, 40},
		// original_call.
		{"123m456p789s234s5m | 5m original", "mah_jong 20, original_call 1d", 20, 1, 40},
		// The limit caps the ordinary score: 66 points and 6 doubles are
		// 4224, paid 1000 (or 500, 2000).
		{"1z ckong:5555z pung:666z pung:777z pung:111m | 1z seat=S", "mah_jong 20, exposed_major_pung x3 12, concealed_major_kong 32, round_wind_pair 2, dragon_pung x3 3d, no_chows 1d, one_suit_with_honours 1d, terminals_and_honours 1d", 66, 6, 1000},
		{"1z ckong:5555z pung:666z pung:777z pung:111m | 1z seat=S limit=500", "mah_jong 20, exposed_major_pung x3 12, concealed_major_kong 32, round_wind_pair 2, dragon_pung x3 3d, no_chows 1d, one_suit_with_honours 1d, terminals_and_honours 1d", 66, 6, 500},
		{"1z ckong:5555z pung:666z pung:777z pung:111m | 1z seat=S limit=2000", "mah_jong 20, exposed_major_pung x3 12, concealed_major_kong 32, round_wind_pair 2, dragon_pung x3 3d, no_chows 1d, one_suit_with_honours 1d, terminals_and_honours 1d", 66, 6, 2000},
		{"123m456p789s234s5m | 5m limit=1500", "mah_jong 20", 20, 0, 20},
		// A Gates of Heaven scores as the special hand (1000), its
		// reading as sets (36 points, one suit) shown beside it.
		{"1112345678999s | 5s", "mah_jong 20, concealed_major_pung x2 16, one_suit 3d", 36, 3, 1000},
	}
	for _, tt := range tests {
		h, win, s, r := mustLine(t, tt.line)
		if err := CheckSituation(&h, &s); err != nil {
			t.Errorf("CheckSituation(%s): %v", tt.line, err)
		}
		res := Score(&h, win, &s, &r)
		if !res.Win {
			t.Errorf("Score(%s) = no win (%v)", tt.line, res.Reason)
			continue
		}
		if got := linesString(&res); got != tt.lines || res.Base != tt.base || res.Doubles != tt.doubles || res.Score != tt.score {
			t.Errorf("Score(%s) =\n  %s: %d points, %d doubles, score %d\nwant\n  %s: %d points, %d doubles, score %d",
				tt.line, got, res.Base, res.Doubles, res.Score, tt.lines, tt.base, tt.doubles, tt.score)
		}
		if _, ordinary, score, _ := slowScore(&h, win, &s, &r); ordinary != res.Ordinary || score != res.Score {
			t.Errorf("Score(%s) = %d/%d, slow %d/%d", tt.line, res.Ordinary, res.Score, ordinary, score)
		}
		checkResult(t, tt.line, &res, &r)
	}
}

// TestNotComplete: hands that are not Mah Jong, and hands no table can
// hold.
func TestNotComplete(t *testing.T) {
	for _, line := range []string{
		"123m456p789s11z22z | 3z",       // five pairs' worth
		"11m22m33m44p55p66s7s | 7s",     // seven pairs is no classical hand
		"123m456p789s234s5m | 6m",       // no pair
		"123m456p789s23s | 5m",          // a tile short
		"1111m456p789s234s | 1m",        // a fifth tile
		"123m456p789s5m pung:555m | 5m", // a fifth tile, a meld holding four
	} {
		h, win, s, r := mustLine(t, line)
		if res := Score(&h, win, &s, &r); res.Win || res.Reason != NotComplete {
			t.Errorf("Score(%s) = win %v reason %v, want not_complete", line, res.Win, res.Reason)
		}
	}
}

func TestCheckSituation(t *testing.T) {
	for _, tt := range []struct {
		line string
		ok   bool
	}{
		{"123m456p789s5m kong:2222s | 5m tsumo rinshan", true},
		{"123m456p789s234s5m | 5m tsumo rinshan", false}, // no kong
		{"123m456p789s5m kong:2222s | 5m rinshan", false},
		{"123m456p789s234s5m | 5m tsumo chankan", false},
		{"123m456p789s234s5m | 5m haitei", false},
		{"123m456p789s234s5m | 5m tsumo houtei", false},
		{"123m456p789s234s5m | 5m chankan houtei", false},
		{"123m456p789s234s5m | 5m tsumo haitei original", true},
	} {
		h, _, s, _ := mustLine(t, tt.line)
		err := CheckSituation(&h, &s)
		if (err == nil) != tt.ok || (err != nil && !errors.Is(err, ErrSituation)) {
			t.Errorf("CheckSituation(%s) = %v, want ok %v", tt.line, err, tt.ok)
		}
	}
}

// TestValues: the special hands' values in limits and when fishing.
func TestValues(t *testing.T) {
	for _, tt := range []struct {
		s              Special
		limit          int
		value, fishing int
	}{
		{WrigglySnake, 1000, 1000, 400},
		{UniqueWonder, 1000, 2000, 800},
		{GatesOfHeaven, 1000, 1000, 400},
		{WrigglySnake, 500, 500, 200},
		{UniqueWonder, 1500, 3000, 1200},
		{GatesOfHeaven, 2000, 2000, 800},
		{NoSpecial, 1000, 0, 0},
	} {
		r := Rules{Limit: tt.limit}
		if v, f := tt.s.Value(&r), tt.s.FishingValue(&r); v != tt.value || f != tt.fishing {
			t.Errorf("%v at %d: value %d fishing %d, want %d %d", tt.s, tt.limit, v, f, tt.value, tt.fishing)
		}
	}
	for _, n := range []int{0, 499, 750, 1001, 3000} {
		if ValidLimit(n) {
			t.Errorf("ValidLimit(%d) = true", n)
		}
	}
}

// TestScoreAllocs: Score, FishingFor, Shanten and Waits do not allocate.
func TestScoreAllocs(t *testing.T) {
	h, win, s, r := mustLine(t, "222333444m666p5s | 5s tsumo seat=S bonus=2f")
	fishing, _, _, _ := mustLine(t, "1112345678999m")
	var sink int
	if n := testing.AllocsPerRun(100, func() {
		res := Score(&h, win, &s, &r)
		f := FishingFor(&fishing)
		sink += res.Score + Shanten(&fishing) + Waits(&fishing).Len() + f.For(GatesOfHeaven).Len()
	}); n != 0 {
		t.Errorf("%v allocations per run, want 0", n)
	}
}
