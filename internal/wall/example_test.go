package wall_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

func ExampleNew() {
	var seed [32]byte // production seeds come from package fair
	w := wall.New(seed, true)
	var dealer []tile.Tile
	for n := range 13 {
		dealer = append(dealer, w.Tiles[wall.DealPos(0, n)])
	}
	fmt.Println("dealer's hand:", tile.Format(dealer))
	fmt.Println("first draw:", w.Tiles[wall.LivePos(0)])
	fmt.Println("first dora indicator:", w.Tiles[wall.DoraPos(0)])
	// Output:
	// dealer's hand: 4579m77p268s1447z
	// first draw: 2m
	// first dora indicator: 5p
}

func ExampleStacked() {
	w, err := wall.Stacked(&wall.Script{
		Hands: [4][]tile.Tile{tile.MustParse("19m19p19s1234567z")}, // the dealer's
		Draws: tile.MustParse("1m"),
		Dora:  tile.MustParse("0p"),
	}, true)
	if err != nil {
		panic(err)
	}
	fmt.Println(w.Tiles[wall.LivePos(0)], w.Tiles[wall.DoraPos(0)])
	// Output: 1m 0p
}
