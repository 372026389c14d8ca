package judge_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/judge"
	"github.com/mahjong-authority/authority/internal/tile"
)

func analysisCounts(s string) *tile.Counts {
	c := tile.CountsOf(tile.MustParse(s))
	return &c
}

func ExampleComplete() {
	fmt.Println(judge.Complete(analysisCounts("123m456p789s11122z"))) // four sets and a pair
	fmt.Println(judge.Complete(analysisCounts("11223344556677z")))    // seven pairs
	fmt.Println(judge.Complete(analysisCounts("11112233445599m")))    // four of a kind are not two pairs
	fmt.Println(judge.Complete(analysisCounts("123m11z")))            // beside three melds
	// Output:
	// true
	// true
	// false
	// true
}

func ExampleShanten() {
	fmt.Println(judge.Shanten(analysisCounts("123m456p789s11222z"))) // complete
	fmt.Println(judge.Shanten(analysisCounts("1112345678999m")))     // tenpai
	fmt.Println(judge.Shanten(analysisCounts("1133557799m113p")))    // tenpai for seven pairs
	fmt.Println(judge.Shanten(analysisCounts("147m258p369s1234z")))  // six away, by seven pairs
	// Output:
	// -1
	// 0
	// 0
	// 6
}

func ExampleWaits() {
	fmt.Println(judge.Waits(analysisCounts("1112345678999m")))    // nine gates: 9-sided
	fmt.Println(judge.Waits(analysisCounts("19m19p19s1234567z"))) // thirteen orphans: 13-sided
	fmt.Println(judge.Waits(analysisCounts("1111m123p456s789s"))) // a fifth 1m: the table decides
	fmt.Println(judge.Waits(analysisCounts("1234m567p999s")))     // one meld beside
	// Output:
	// 123456789m
	// 19m19p19s1234567z
	// 1m
	// 14m
}

func ExampleShantenSevenPairs() {
	c := analysisCounts("1111m22p33s44z55z6z") // four 1m count as one pair
	fmt.Println(judge.ShantenStandard(c), judge.ShantenSevenPairs(c), judge.ShantenThirteenOrphans(c))
	fmt.Println(judge.ShantenSevenPairs(analysisCounts("1122m33p4z")) == judge.ShantenUnreachable) // beside a meld
	// Output:
	// 2 2 8
	// true
}
