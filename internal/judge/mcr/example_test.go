package mcr_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
)

// A mixed straight won on an edge wait, with three flowers: 14 points
// toward the minimum, 17 in all.
func ExampleScore() {
	h := judge.Hand{Concealed: tile.MustParse("123m456p789s1299s")}
	s := mcr.Situation{Flowers: 3}
	r := mcr.Score(&h, tile.MustParse("3s")[0], &s)
	for _, f := range r.Fans() {
		fmt.Println(f.Fan, f.Count, f.Points)
	}
	fmt.Println(r.Total, r.TotalWithoutFlowers, r.MeetsMinimum)
	// Output:
	// mixed_straight 1 8
	// concealed_hand 1 2
	// all_chows 1 2
	// mixed_double_chow 1 1
	// edge_wait 1 1
	// flower_tiles 3 3
	// 17 14 true
}

// Honours and knitted tiles one short: the three missing honours complete
// it.
func ExampleWaits() {
	c := tile.CountsOf(tile.MustParse("147m258s369p1234z"))
	fmt.Println(mcr.Shanten(&c), mcr.Waits(&c))
	// Output: 0 567z
}
