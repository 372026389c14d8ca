package judge

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// The analysis benchmarks read the fixed hand sets once, build the tables
// before timing, and analyse one hand per iteration, cycling through the
// file:
//
//	go test -run='^$' -bench='Win|Shanten|Waits|BuildTables' -benchmem ./internal/judge

func BenchmarkWin(b *testing.B) {
	hands := analysisHands(b, "../../testdata/bench/hands14.txt")
	loadTables()
	wins := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if Complete(&hands[i%len(hands)]) {
			wins++
		}
	}
}

func BenchmarkShanten(b *testing.B) {
	hands := analysisHands(b, "../../testdata/bench/hands13.txt")
	loadTables()
	sum := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		sum += Shanten(&hands[i%len(hands)])
	}
}

func BenchmarkWaits(b *testing.B) {
	hands := analysisHands(b, "../../testdata/bench/hands13.txt")
	loadTables()
	var all tile.KindSet
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		all |= Waits(&hands[i%len(hands)])
	}
}

// BenchmarkBuildTables is what the first analysis call in a process pays;
// B/op is the tables' memory (with some garbage from building them).
func BenchmarkBuildTables(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		buildSuitTables()
	}
}
