package mcr

import "testing"

// exclusionHands shows each rule of the exclusion table on a hand: the
// fan By counts, and leaving the rule out changes the score (the
// dropped fans come back).
var exclusionHands = map[Fan]scoreCase{
	// 111z 222z 333z 444z and 55m: big four winds holds all pungs and the
	// wind pungs (not all honours, which drops them too).
	BigFourWinds: {hand: "111z222z333z44z55m", win: "4z"},
	// The three dragon pungs are not also three dragon pungs of 2 each.
	BigThreeDragons: {hand: "555z666z77z123m99m", win: "7z", flags: "tsumo"},
	// Bamboo and the green dragon: all green is a half flush already.
	AllGreen: {hand: "22334466888s66z", win: "6z"},
	// Four kongs always wait on the pair.
	FourKongs: {hand: "2z", win: "2z", melds: "kan:1111z kan:3333z ankan:4444z ankan:8888p", flags: "tsumo rinshan"},
	// 111m 999m 111p 999p 11s: pungs of terminals, outside, no honours, double pungs.
	AllTerminals: {hand: "111999m111999p1s", win: "1s"},
	// Three wind pungs and a wind pair: the wind pungs are in its value.
	LittleFourWinds:    {hand: "2z", win: "2z", melds: "pon:111z pon:333z pon:444z pon:888p"},
	LittleThreeDragons: {hand: "123m456p66z77z", win: "7z", melds: "pon:555z"},
	// All honours: no suit at all is not three voided suits.
	AllHonors: {hand: "111z222z333z44z55z", win: "4z"},
	// Four concealed pungs are concealed and all pungs by definition; on a
	// self-draw the fully concealed hand becomes a plain self-draw.
	FourConcealedPungs: {hand: "111999m111p999s1z", win: "1z", flags: "tsumo"},
	PureTerminalChows:  {hand: "123789m123789m5m", win: "5m"},
	// 111 222 333 444m: four shifted pungs are all pungs (one melded, so
	// that they are not four concealed pungs, which drop all pungs too).
	FourPureShiftedPungs:  {hand: "111m222m333m5m", win: "5m", melds: "pon:444m"},
	AllTerminalsAndHonors: {hand: "111999m111p999s1z", win: "1z"},
	// Even pungs are all pungs of simples without honours.
	AllEvenPungs: {hand: "222m444m666p88s44s", win: "4s"},
	UpperTiles:   {hand: "777m888p999s789s8m", win: "8m"},
	MiddleTiles:  {hand: "444m555p666s456m4s", win: "4s"},
	LowerTiles:   {hand: "111m222p333s123m1s", win: "1s"},
	// 123 789m 123 789s and 55p: all chows without honours.
	ThreeSuitedTerminalChows: {hand: "123789m123789s5p", win: "5p"},
	AllFive:                  {hand: "456m456p555s345s5m", win: "5m"},
	UpperFour:                {hand: "678m789p789s99s66s", win: "6s"},
	LowerFour:                {hand: "123m234p234s44m11s", win: "1s"},
	// 222z 333z 444z: the three wind pungs are not also pungs of honours.
	BigThreeWinds: {hand: "222z333z444z123m5z", win: "5z"},
	// Reversible tiles cannot hold characters: no voided suit on top.
	ReversibleTiles: {hand: "123p345p888s99s55z", win: "9s"},
	// The last tile of the wall is self-drawn by definition.
	LastTileDraw:           {hand: "45m456p789s22z", win: "6m", melds: "pon:333z", flags: "tsumo haitei"},
	OutWithReplacementTile: {hand: "45m456p22z", win: "6m", melds: "kan:3333z chi:789s", flags: "tsumo rinshan"},
	// A melded hand always waits on the pair.
	MeldedHand:         {hand: "5m", win: "5m", melds: "pon:555z pon:666z pon:777z pon:999m"},
	TwoDragonPungs:     {hand: "555z666z123m456p9s", win: "9s"},
	FullyConcealedHand: {hand: "123m456p789s1299s", win: "3s", flags: "tsumo"},
	AllChows:           {hand: "123m456p789s1299s", win: "3s"},
	AllSimples:         {hand: "234m345p456s22p33s", win: "3s"},
}

func TestExclusions(t *testing.T) {
	seen := map[Fan]bool{}
	for i, e := range exclusions {
		seen[e.By] = true
		c, ok := exclusionHands[e.By]
		if !ok {
			t.Errorf("exclusion %d (%v) has no test hand", i, e.By)
			continue
		}
		h, w := handOf(t, c.hand, c.win, c.melds)
		s := situationOf(t, c.flags)
		var with, without fanTable
		for skip, tab := range map[int]*fanTable{0: &with, i + 1: &without} {
			sc := scorer{skipRule: skip}
			if !sc.init(&h, w, &s) || !sc.best(tab) {
				t.Fatalf("exclusion %v: %s + %s is not a win", e.By, c.hand, c.win)
			}
		}
		if with[e.By] == 0 {
			t.Errorf("exclusion %v: %s + %s does not count %v", e.By, c.hand, c.win, e.By)
		}
		for _, d := range e.Drop {
			if with[d] != 0 {
				t.Errorf("exclusion %v: %s + %s still counts %v", e.By, c.hand, c.win, d)
			}
		}
		if with == without {
			t.Errorf("exclusion %v: leaving the rule out changes nothing on %s + %s", e.By, c.hand, c.win)
		}
	}
	for f := range exclusionHands {
		if !seen[f] {
			t.Errorf("test hand for %v, which excludes nothing", f)
		}
	}
}
