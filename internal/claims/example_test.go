package claims_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/claims"
	"github.com/mahjong-authority/authority/internal/tile"
)

// Seat 0 discards 4m: seat 1 (next in turn) may chi it in every shape, seat
// 2 may pon it. Both answer; the pon wins.
func Example() {
	ctx := claims.Context{Source: claims.Discard, From: 0, Tile: tile.MustParse("4m")[0], Calls: true, Kan: true}
	seats := [4]claims.Claimant{
		{},
		{Hand: tile.MustParse("2356m123p")},
		{Hand: tile.MustParse("44m789s")},
		{Hand: tile.MustParse("19p")},
	}
	offers := claims.Offers(&ctx, &seats)
	for s := range offers {
		fmt.Println(s, offers[s].Options())
	}
	var w claims.Window
	w.Open(0, offers)
	_ = w.Answer(1, offers[1].Options()[0])
	_ = w.Answer(2, offers[2].Options()[0])
	r := w.Resolve()
	fmt.Println(w.Done(), r.Caller, r.Call)
	// Output:
	// 0 []
	// 1 [chi 23m chi 35m chi 56m]
	// 2 [pon 44m]
	// 3 []
	// true 2 pon 44m
}
