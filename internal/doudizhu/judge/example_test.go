package judge_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/judge"
)

func ExampleClassify() {
	for _, s := range []string{"33344455", "TJQKA", "JQKA2", "333444555666", "XD"} {
		c := card.MustParse(s)
		p := judge.Classify(&c)
		fmt.Println(s, p.Type, p.Rank, p.Len)
	}
	// Output:
	// 33344455 airplane_single_wings 3 2
	// TJQKA straight T 5
	// JQKA2 invalid 3 1
	// 333444555666 airplane 3 4
	// XD rocket 3 1
}

func ExampleAppendLegal() {
	hand := card.MustParse("3345577889TTJQKAX")
	prevCards := card.MustParse("34567")
	prev := judge.Classify(&prevCards)
	buf := make([]judge.Play, 0, 64) // reused from call to call: no allocation
	buf = judge.AppendLegal(buf[:0], &hand, &prev)
	judge.Sort(buf)
	for _, p := range buf {
		fmt.Print(p.String(), " ")
	}
	fmt.Println()
	// Output:
	// 789TJ 89TJQ 9TJQK TJQKA
}

func ExampleAnswer() {
	prevCards := card.MustParse("333444555789")
	prev := judge.Classify(&prevCards)
	c := card.MustParse("666777888999")
	p, ok := judge.Answer(&c, &prev)
	fmt.Println(ok, p.Type, p.Rank, p.Len)
	// Output:
	// true airplane_single_wings 7 3
}
