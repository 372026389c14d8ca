package sichuan_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
)

// A seat that declared pin void, after a discard: is it ready, may it win
// on the discard, and what is its hand worth.
func Example() {
	h := sichuan.Hand{
		Concealed: tile.CountsOf(tile.MustParse("1122m3344m55567s")),
		Void:      tile.Pin,
	}
	fmt.Println(sichuan.Shanten(&h), sichuan.Waits(&h), sichuan.Ready(&h))
	fmt.Println(sichuan.CanWin(&h, tile.S8), sichuan.CanWin(&h, tile.M5))
	fmt.Println(sichuan.BestValue(&h, &sichuan.Default)) // 5s: four of a kind, a gen

	r := sichuan.Score(&h, tile.S8, &sichuan.Situation{Houtei: true}, &sichuan.Default)
	for _, l := range r.Lines() {
		fmt.Println(l.Fan, l.Count)
	}
	fmt.Println(r.Fan, r.Value)

	h.Concealed[tile.P2]++ // still holds a tile of its void suit
	h.Concealed[tile.S7]--
	fmt.Println(sichuan.Score(&h, tile.S7, &sichuan.Situation{}, &sichuan.Default).Reason)
	// Output:
	// 0 14m58s true
	// true false
	// 2
	// hai_di 1
	// 1 2
	// missing_suit
}
