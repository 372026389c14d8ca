package deck_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
)

func ExampleNew() {
	var seed [32]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	d := deck.New(seed)
	fmt.Println("first bidder", d.First)
	for s := range deck.Seats {
		fmt.Println(s, d.Hand(s))
	}
	fmt.Println("kitty", d.Kitty())
	// Output:
	// first bidder 0
	// 0 333467889TTJKKAA2
	// 1 35667TJJQQKKA22XD
	// 2 4455567788999TQA2
	// kitty 4JQ
}
