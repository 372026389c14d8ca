package tenhou

import (
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

func meld(typ judge.MeldType, tiles string, from table.Seat, called, added string) table.Meld {
	m := table.Meld{Meld: judge.Meld{Type: typ}, From: from}
	for i, t := range tile.MustParse(tiles) {
		m.Tiles[i] = t
	}
	if called != "" {
		m.Called = tile.MustParse(called)[0]
	}
	if added != "" {
		m.Added = tile.MustParse(added)[0]
	}
	return m
}

// TestCallStrings writes calls as Tenhou does; the wanted strings are real
// ones quoted in formats.md (section 2.4 and 2.6).
func TestCallStrings(t *testing.T) {
	tests := []struct {
		name      string
		seat      table.Seat
		meld      table.Meld
		take, put any // what lands in the takes and the discards
	}{
		{"chi, red called", 1, meld(judge.Chi, "0p46p", 0, "0p", ""), "c522426", nil},
		{"chi, red own", 1, meld(judge.Chi, "0s67s", 0, "6s", ""), "c365337", nil},
		{"pon from kamicha", 1, meld(judge.Pon, "222z", 0, "2z", ""), "p424242", nil},
		{"pon from toimen", 2, meld(judge.Pon, "222m", 0, "2m", ""), "12p1212", nil},
		{"pon from shimocha, red own", 0, meld(judge.Pon, "550m", 1, "5m", ""), "1551p15", nil},
		{"pon from toimen, red own", 0, meld(judge.Pon, "055s", 2, "5s", ""), "35p3553", nil},
		{"pon, red called", 3, meld(judge.Pon, "055m", 2, "0m", ""), "p511515", nil},
		{"daiminkan from kamicha", 1, meld(judge.OpenKan, "9999s", 0, "9s", ""), "m39393939", 0},
		{"daiminkan from toimen", 0, meld(judge.OpenKan, "6666p", 2, "6p", ""), "26m262626", 0},
		{"daiminkan from shimocha", 0, meld(judge.OpenKan, "3333m", 1, "3m", ""), "131313m13", 0},
		{"ankan of fives", 2, meld(judge.ClosedKan, "0555m", 2, "0m", ""), nil, "151515a51"},
		{"ankan", 2, meld(judge.ClosedKan, "7777p", 2, "7p", ""), nil, "272727a27"},
	}
	for _, tt := range tests {
		var r round
		if err := r.call(table.Called{Seat: tt.seat, Meld: tt.meld}); err != nil {
			t.Fatal(err)
		}
		var take, put any
		if len(r.takes[tt.seat]) > 0 {
			take = r.takes[tt.seat][0]
		}
		if len(r.discards[tt.seat]) > 0 {
			put = r.discards[tt.seat][0]
		}
		if take != tt.take || put != tt.put {
			t.Errorf("call(%s) = take %v, discard %v; want %v, %v", tt.name, take, put, tt.take, tt.put)
		}
	}
}

func TestAddedKanString(t *testing.T) {
	tests := []struct {
		name     string
		pon, kan table.Meld
		want     string
	}{
		{"from kamicha", meld(judge.Pon, "666z", 3, "6z", ""), meld(judge.AddedKan, "6666z", 3, "6z", "6z"), "k46464646"},
		{"from toimen", meld(judge.Pon, "111s", 1, "1s", ""), meld(judge.AddedKan, "1111s", 1, "1s", "1s"), "31k313131"},
		{"from shimocha", meld(judge.Pon, "777s", 0, "7s", ""), meld(judge.AddedKan, "7777s", 0, "7s", "7s"), "3737k3737"},
		{"red own", meld(judge.Pon, "055s", 1, "5s", ""), meld(judge.AddedKan, "0555s", 1, "5s", "5s"), "35k353553"},
		{"red added", meld(judge.Pon, "555m", 2, "5m", ""), meld(judge.AddedKan, "0555m", 2, "5m", "0m"), "k51151515"},
	}
	for _, tt := range tests {
		var r round
		if err := r.call(table.Called{Seat: 3, Meld: tt.pon}); err != nil {
			t.Fatal(err)
		}
		if err := r.call(table.Called{Seat: 3, Meld: tt.kan}); err != nil {
			t.Fatal(err)
		}
		if got := r.discards[3]; !reflect.DeepEqual(got, []any{tt.want}) {
			t.Errorf("added kan %s = %v, want %s", tt.name, got, tt.want)
		}
	}
	var r round
	if err := r.call(table.Called{Seat: 0, Meld: meld(judge.AddedKan, "1111m", 1, "1m", "1m")}); err == nil {
		t.Errorf("added kan without a pon: no error")
	}
}

// TestPointStrings checks the rank and payment strings against real ones
// (formats.md 2.8): honba and sticks are never part of them.
func TestPointStrings(t *testing.T) {
	tests := []struct {
		w      table.Won
		dealer bool
		want   string
	}{
		{table.Won{Han: 4, Fu: 30}, true, "30符4飜11600点"},
		{table.Won{Han: 1, Fu: 30}, false, "30符1飜1000点"},
		{table.Won{Han: 3, Fu: 20, Tsumo: true}, false, "20符3飜700-1300点"},
		{table.Won{Han: 1, Fu: 30, Tsumo: true}, true, "30符1飜500点∀"},
		{table.Won{Han: 4, Fu: 25}, false, "25符4飜6400点"},
		{table.Won{Han: 5, Limit: judge.Mangan, Tsumo: true}, true, "満貫4000点∀"},
		{table.Won{Han: 5, Limit: judge.Mangan, Tsumo: true}, false, "満貫2000-4000点"},
		{table.Won{Han: 6, Limit: judge.Haneman}, false, "跳満12000点"},
		{table.Won{Han: 13, Limit: judge.KazoeYakuman}, false, "役満32000点"},
		{table.Won{Han: 26, Yakuman: 2, Limit: judge.Yakuman, Tsumo: true}, false, "役満16000-32000点"},
	}
	for _, tt := range tests {
		if got := pointString(&tt.w, tt.dealer); got != tt.want {
			t.Errorf("pointString(%d han %d fu %v, dealer %v) = %s, want %s", tt.w.Han, tt.w.Fu, tt.w.Limit, tt.dealer, got, tt.want)
		}
	}
}

// TestRinshanAfterOpenKan: a daiminkan puts a 0 in the discards, and
// Tenhou drops it when the round ends on the replacement tile.
func TestRinshanAfterOpenKan(t *testing.T) {
	hand := tile.MustParse("1112345678999m")
	evs := []table.Body{
		table.RoundStarted{RoundWind: tile.WindEast, Number: 1, Scores: [4]int{25000, 25000, 25000, 25000}, Dora: tile.MustParse("1z")[0]},
		table.Dealt{Seat: 1, Hand: hand[:13]},
		table.Called{Seat: 1, Meld: meld(judge.OpenKan, "9999m", 0, "9m", "")},
		table.Drew{Seat: 1, Tile: tile.MustParse("5m")[0], Known: true, Rinshan: true},
		table.Won{Seat: 1, From: 1, Tsumo: true, Han: 2, Fu: 40, Deltas: [4]int{-1300, 2600, -700, -700}},
		table.RoundEnded{Kind: table.EndWin},
	}
	got, err := convertRound(evs)
	if err != nil {
		t.Fatal(err)
	}
	if takes, discards := got[8], got[9]; !reflect.DeepEqual(takes, []any{"m19191919", 15}) || !reflect.DeepEqual(discards, []any{}) {
		t.Errorf("seat 1 takes %v discards %v, want [m19191919 15] []", takes, discards)
	}
}
