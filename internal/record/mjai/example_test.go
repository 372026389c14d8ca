package mjai_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/record/mjai"
	"github.com/mahjong-authority/authority/internal/tile"
)

func ExamplePai() {
	for _, t := range tile.MustParse("19m0p1234567z") {
		fmt.Print(mjai.Pai(t), " ")
	}
	fmt.Println()
	// Output: 1m 9m 5pr E S W N P F C
}
