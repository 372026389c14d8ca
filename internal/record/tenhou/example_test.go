package tenhou_test

import (
	"fmt"
	"os"

	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/record/tenhou"
	"github.com/mahjong-authority/authority/internal/tile"
)

func ExampleCode() {
	for _, t := range tile.MustParse("19m5p0p1z7z") {
		fmt.Print(tenhou.Code(t), " ")
	}
	fmt.Println()
	// Output: 11 19 25 52 41 47
}

// A record read from JSON is rebuilt through the table first: the log
// needs the engine's events (who drew what, the yaku of each win).
func ExampleConvert() {
	b, err := os.ReadFile("../../../testdata/records/seeded-game.jsonl")
	if err != nil {
		panic(err)
	}
	g, _ := record.Decode(b)
	g, err = record.Rebuild(g)
	if err != nil {
		panic(err)
	}
	l, err := tenhou.Convert(g)
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Rule.Disp, len(l.Log), "rounds")
	fmt.Println("round 1:", l.Log[1][0], l.Log[1][16])
	// Output:
	// 般南喰赤 15 rounds
	// round 1: [0 1 1] [和了 [0 0 7500 -5500] [2 3 2 40符3飜5200点 立直(1飜) ドラ(2飜)]]
}
