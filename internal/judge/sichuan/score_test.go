package sichuan

import (
	"errors"
	"testing"
)

func TestScore(t *testing.T) {
	tests := []struct {
		name, hand, win, sit string
		cap                  int // 0: the default, 3
		fan, value           int
		lines                string
	}{
		// 平胡: no fan, and a self-draw adds none.
		{"plain", "p 123m456m789m234s5s", "5s", "", 0, 0, 1, ""},
		{"plain tsumo", "p 123m456m789m234s5s", "5s", "tsumo", 0, 0, 1, ""},
		// gen: four of a kind across a triplet and a run, a pon and the
		// fourth tile in a run, each kan, a quad inside seven pairs.
		{"gen in runs", "p 111m123m456m789s5s", "5s", "", 0, 1, 2, "gen 1"},
		{"gen pon and run", "p 2m34m789m678s5s pon:222m", "5s", "", 0, 1, 2, "gen 1"},
		{"gen kans", "m 345p789s5s kan:1111p ankan:2222s", "5s", "", 0, 2, 4, "gen 2"},
		{"gen added kan", "m 345p789s5s addkan:1111p pon:333s", "5s", "", 0, 1, 2, "gen 1"},
		{"gen win tile", "p 111m23m456m789s55s", "1m", "", 0, 1, 2, "gen 1"},
		// dui_dui_hu and jin_gou_diao.
		{"dui_dui_hu", "s 111m444m777p22p99p", "9p", "", 0, 1, 2, "dui_dui_hu 1"},
		{"dui_dui_hu shanpon on the pair side", "s 111m444m777p22p99p", "2p", "", 0, 1, 2, "dui_dui_hu 1"},
		{"jin_gou_diao", "s 111m444m777p999p2p", "2p", "", 0, 2, 4, "dui_dui_hu 1, jin_gou_diao 1"},
		{"jin_gou_diao four melds", "m 5s pon:111p pon:999p kan:2222s pon:333s", "5s", "", 0, 3, 8, "gen 1, dui_dui_hu 1, jin_gou_diao 1"},
		// 111222333m reads as triplets or runs: the triplets pay more.
		{"all pungs or runs", "p 111222333m789s5s", "5s", "", 0, 0, 1, ""},
		{"all pungs reading wins", "p 111222333m888s5s", "5s", "", 0, 2, 4, "dui_dui_hu 1, jin_gou_diao 1"},
		// qing_yi_se, 清对, 清金钩钓.
		{"qing_yi_se", "p 1234567899s123s", "9s", "", 0, 2, 4, "qing_yi_se 2"},
		{"qing dui", "p 222s555s888s9s pon:111s", "9s", "", 5, 4, 16, "dui_dui_hu 1, jin_gou_diao 1, qing_yi_se 2"},
		// qi_dui, 龙七对, 清龙七对; seven pairs that also read as runs.
		{"qi_dui", "s 1133m5577m2244p9p", "9p", "", 0, 2, 4, "qi_dui 2"},
		{"long qi_dui", "s 1111m3355m2244p9p", "9p", "", 0, 3, 8, "gen 1, qi_dui 2"},
		{"qing long qi_dui", "s 1111m2233m4455m6m", "6m", "", 5, 5, 32, "gen 1, qing_yi_se 2, qi_dui 2"},
		{"two quads qi_dui", "s 1111m3333m55p77p9p", "9p", "", 5, 4, 16, "gen 2, qi_dui 2"},
		{"qi_dui over runs", "s 112233m445566p7p", "7p", "", 0, 2, 4, "qi_dui 2"},
		// Situational fans.
		{"gang_shang_hua", "p 123m678m78s99s ankan:5555m", "9s", "tsumo rinshan", 0, 2, 4, "gen 1, gang_shang_hua 1"},
		{"gang_shang_pao", "p 123m456m789m234s5s", "5s", "after_kan", 0, 1, 2, "gang_shang_pao 1"},
		{"qiang_gang_hu", "p 123m456m789m234s5s", "5s", "chankan", 0, 1, 2, "qiang_gang_hu 1"},
		{"hai_di tsumo", "p 123m456m789m234s5s", "5s", "tsumo haitei", 0, 1, 2, "hai_di 1"},
		{"hai_di discard", "p 123m456m789m234s5s", "5s", "houtei", 0, 1, 2, "hai_di 1"},
		{"hai_di after a kan", "p 123m678m78s99s ankan:5555m", "9s", "tsumo rinshan haitei", 0, 3, 8, "gen 1, gang_shang_hua 1, hai_di 1"},
		// qiang_gang_hu drops dui_dui_hu, jin_gou_diao, qi_dui and hai_di.
		{"qiang_gang_hu all pungs", "s 111m444m777p999p2p", "2p", "chankan houtei", 0, 1, 2, "qiang_gang_hu 1"},
		{"qiang_gang_hu qi_dui", "s 1111m3355m2244p9p", "9p", "chankan", 0, 2, 4, "gen 1, qiang_gang_hu 1"},
		// Impossible flags do not count (CheckSituation names them).
		{"rinshan on a discard", "p 123m678m78s99s ankan:5555m", "9s", "rinshan", 0, 1, 2, "gen 1"},
		{"rinshan without a kan", "p 123m456m789m234s5s", "5s", "tsumo rinshan", 0, 0, 1, ""},
		{"houtei on a tsumo", "p 123m456m789m234s5s", "5s", "tsumo houtei", 0, 0, 1, ""},
		{"after_kan with chankan", "p 123m456m789m234s5s", "5s", "after_kan chankan", 0, 1, 2, "qiang_gang_hu 1"},
		// The cap: fan is capped, the lines are not.
		{"cap 3", "p 1s kan:2222s ankan:3333s kan:4444s pon:555s", "1s", "tsumo rinshan haitei", 0, 3, 8,
			"gen 3, dui_dui_hu 1, jin_gou_diao 1, qing_yi_se 2, gang_shang_hua 1, hai_di 1"},
		{"cap 4", "p 1s kan:2222s ankan:3333s kan:4444s pon:555s", "1s", "tsumo rinshan haitei", 4, 4, 16,
			"gen 3, dui_dui_hu 1, jin_gou_diao 1, qing_yi_se 2, gang_shang_hua 1, hai_di 1"},
		{"cap 5", "p 1s kan:2222s ankan:3333s kan:4444s pon:555s", "1s", "tsumo rinshan haitei", 5, 5, 32,
			"gen 3, dui_dui_hu 1, jin_gou_diao 1, qing_yi_se 2, gang_shang_hua 1, hai_di 1"},
		{"no cap", "p 1s kan:2222s ankan:3333s kan:4444s pon:555s", "1s", "tsumo rinshan haitei", 20, 9, 512,
			"gen 3, dui_dui_hu 1, jin_gou_diao 1, qing_yi_se 2, gang_shang_hua 1, hai_di 1"},
		{"cap 1", "s 1133m5577m2244p9p", "9p", "", 1, 1, 2, "qi_dui 2"},
		{"cap below zero", "s 1133m5577m2244p9p", "9p", "", -4, 0, 1, "qi_dui 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hand(t, tt.hand)
			s := parseSit(t, tt.sit)
			r := Default
			if tt.cap != 0 {
				r.FanCap = tt.cap
			}
			got := Score(&h, kind(t, tt.win), &s, &r)
			if !got.Win || got.Fan != tt.fan || got.Value != tt.value || lines(&got) != tt.lines {
				t.Errorf("Score(%s, %s, %s) = win %v fan %d value %d [%s], want fan %d value %d [%s]",
					tt.hand, tt.win, tt.sit, got.Win, got.Fan, got.Value, lines(&got), tt.fan, tt.value, tt.lines)
			}
			sum := 0
			for _, l := range got.Lines() {
				sum += l.Count
			}
			if sum != got.RawFan || got.Fan != min(got.RawFan, max(r.FanCap, 0)) {
				t.Errorf("Score(%s, %s): raw fan %d, lines sum %d, fan %d", tt.hand, tt.win, got.RawFan, sum, got.Fan)
			}
			if want := slowScore(&h, kind(t, tt.win), &s, &r); got != want {
				t.Errorf("Score(%s, %s) = %+v, slow %+v", tt.hand, tt.win, got, want)
			}
		})
	}
}

func TestScoreRefusals(t *testing.T) {
	tests := []struct {
		name, hand, win string
		want            Reason
	}{
		{"void tile in hand", "p 123m456m789m234s5p", "5p", MissingSuit},
		{"void tile and not complete", "m 123m456m789m234s5s", "7s", MissingSuit},
		{"void winning tile", "p 123m456m789m23s55s", "1p", MissingSuit},
		{"void meld", "p 123m456m234s5s pon:777p", "5s", MissingSuit},
		{"void kan", "p 123m456m234s5s ankan:7777p", "5s", MissingSuit},
		{"not complete", "p 123m456m789m234s5s", "6s", NotComplete},
		// Four of a kind in a 14-tile hand split 3+1 or 2+2, never 4.
		{"1111 2222 is no pair", "p 1111m2222m345m67m", "8m", NotComplete},
		{"seven pairs need no melds", "s 1133m5577m2p pon:444p", "2p", NotComplete},
		{"odd seven pairs", "s 1113m5577m2244p9p", "9p", NotComplete},
		{"wrong size", "p 123m456m789m234s", "5s", NotComplete},
		{"fifth tile", "s 1m pon:111m pon:222p pon:333p pon:444p", "1m", NotComplete},
		{"fifth tile of a closed kan", "s 1m234p567p789p ankan:1111m", "1m", NotComplete},
		{"size with a meld", "p 123m456m789m234s5s pon:222m", "5s", NotComplete},
		{"honour", "p 123m456m789m234s1z", "1z", NotComplete},
	}
	for _, tt := range tests {
		h := hand(t, tt.hand)
		var s Situation
		got := Score(&h, kind(t, tt.win), &s, &Default)
		if got.Win || got.Reason != tt.want || got.Fan != 0 || len(got.Lines()) != 0 {
			t.Errorf("%s: Score(%s, %s) = %+v, want %v", tt.name, tt.hand, tt.win, got, tt.want)
		}
		if CanWin(&h, kind(t, tt.win)) {
			t.Errorf("%s: CanWin(%s, %s) = true", tt.name, tt.hand, tt.win)
		}
	}
	// A malformed meld is no hand.
	h := hand(t, "p 123m456m234s5s")
	h.Melds = []Meld{{Type: 0, Kind: 1}}
	if r := Score(&h, kind(t, "5s"), &Situation{}, &Default); r.Reason != NotComplete {
		t.Errorf("Score with an invalid meld = %+v", r)
	}
}

func TestCheckSituation(t *testing.T) {
	tests := []struct {
		hand, sit string
		ok        bool
	}{
		{"p 123m456m789m234s", "", true},
		{"p 123m456m789m234s", "tsumo haitei", true},
		{"p 123m456m789m234s", "houtei after_kan", true},
		{"p 123m456m789m234s", "chankan houtei", true},
		{"p 123m678m78s ankan:5555m", "tsumo rinshan haitei", true},
		{"p 123m678m78s ankan:5555m", "rinshan", false},
		{"p 123m456m789m234s", "tsumo rinshan", false},
		{"p 123m456m789m234s", "haitei", false},
		{"p 123m456m789m234s", "tsumo houtei", false},
		{"p 123m456m789m234s", "tsumo chankan", false},
		{"p 123m456m789m234s", "tsumo after_kan", false},
		{"p 123m456m789m234s", "after_kan chankan", false},
	}
	for _, tt := range tests {
		h := hand(t, tt.hand)
		s := parseSit(t, tt.sit)
		err := CheckSituation(&h, &s)
		if (err == nil) != tt.ok || err != nil && !errors.Is(err, ErrSituation) {
			t.Errorf("CheckSituation(%s, %s) = %v, want ok %v", tt.hand, tt.sit, err, tt.ok)
		}
	}
}

func TestNames(t *testing.T) {
	want := []string{"gen", "dui_dui_hu", "jin_gou_diao", "qing_yi_se", "qi_dui", "gang_shang_hua", "gang_shang_pao", "qiang_gang_hu", "hai_di"}
	for i, w := range want {
		if got := Fan(i + 1).String(); got != w {
			t.Errorf("Fan(%d) = %s, want %s", i+1, got, w)
		}
	}
	if Fan(0).String() != "invalid" || numFans.String() != "invalid" {
		t.Error("invalid fans have names")
	}
	for r, w := range map[Reason]string{ReasonNone: "", NotComplete: "not_complete", MissingSuit: "missing_suit", 9: "invalid"} {
		if r.String() != w {
			t.Errorf("Reason(%d) = %q, want %q", r, r.String(), w)
		}
	}
	for m, w := range map[MeldType]string{Pon: "pon", OpenKan: "open_kan", AddedKan: "added_kan", ClosedKan: "closed_kan", 0: "invalid", 9: "invalid"} {
		if m.String() != w {
			t.Errorf("MeldType(%d) = %q, want %q", m, m.String(), w)
		}
	}
}
