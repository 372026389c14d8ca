package classical_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge/classical"
	"github.com/mahjong-authority/authority/internal/tile"
)

// A concealed hand of bamboo fishing for the Gates of Heaven: what it
// waits on, what it fishes for, and what it scores when it wins on a 5s
// (the special hand's limit beats its 288 points as sets and a pair).
func Example() {
	h := classical.Hand{Concealed: tile.CountsOf(tile.MustParse("1112345678999s"))}
	f := classical.FishingFor(&h)
	fmt.Println(classical.Shanten(&h), classical.Waits(&h))
	for s, waits := range f.Specials {
		fmt.Println("fishing for", s, "on", waits, "worth", s.FishingValue(&classical.Default), "if another seat goes out")
	}

	r := classical.Score(&h, tile.S5, &classical.Situation{}, &classical.Default)
	fmt.Println(r.Special, r.Limits, r.Ordinary, r.Score, r.AsSpecial)
	for _, l := range r.Lines() {
		fmt.Println(" ", l.Item, l.Count, l.Total)
	}

	// An ordinary hand: a pung of red dragons melded, South's flower.
	h = classical.Hand{
		Concealed: tile.CountsOf(tile.MustParse("23m456p789s55z")),
		Melds:     []classical.Meld{{Type: classical.Pung, Kind: tile.Chun}},
		Bonus:     classical.BonusOf(tile.MustParse("2f")),
	}
	r = classical.Score(&h, tile.M1, &classical.Situation{SeatWind: tile.WindSouth}, &classical.Default)
	fmt.Println(r.Base, r.Doubles, r.Score)
	// Output:
	// 0 123456789s
	// fishing for gates_of_heaven on 2345678s worth 400 if another seat goes out
	// gates_of_heaven 1 288 1000 true
	//   mah_jong 1 20
	//   concealed_major_pung 2 16
	//   one_suit 1 3
	// 30 2 120
}
