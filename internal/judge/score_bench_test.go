package judge

import (
	"bufio"
	"os"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
)

// benchWin is a complete hand of the benchmark set, split into the hand and
// the winning tile: the last tile as written in the line.
type benchWin struct {
	hand Hand
	win  tile.Tile
}

// loadBenchWins reads the complete hands (the even lines, counting from 0)
// of ../../testdata/bench/hands14.txt.
func loadBenchWins(tb testing.TB) []benchWin {
	tb.Helper()
	f, err := os.Open("../../testdata/bench/hands14.txt")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var wins []benchWin
	sc := bufio.NewScanner(f)
	for i := 0; sc.Scan(); i++ {
		if i%2 != 0 {
			continue
		}
		ts, err := tile.Parse(sc.Text())
		if err != nil {
			tb.Fatalf("line %d: %v", i+1, err)
		}
		if len(ts) != 14 {
			tb.Fatalf("line %d: %d tiles", i+1, len(ts))
		}
		wins = append(wins, benchWin{Hand{Concealed: ts[:13]}, ts[13]})
	}
	if err := sc.Err(); err != nil {
		tb.Fatal(err)
	}
	return wins
}

// benchSituation is the one situation of BenchmarkScore: a ron by the South
// seat in the East round, with riichi (so that every closed hand has a yaku
// and goes through the whole scoring, ura dora included), dora indicator 3p
// and ura indicator 8s.
var benchSituation = Situation{
	Riichi:         true,
	SeatWind:       tile.WindSouth,
	RoundWind:      tile.WindEast,
	DoraIndicators: []tile.Tile{tile.Plain(tile.P3)},
	UraIndicators:  []tile.Tile{tile.Plain(tile.S8)},
}

// BenchmarkScore scores the complete hands of hands14.txt, one per
// iteration, each won by ron on its last tile, to the full Result. Measured
// with `go test -run '^$' -bench BenchmarkScore -benchmem ./internal/judge`
// on the 2-core development machine: about 480-540 ns/op, 0 B/op, 0
// allocs/op (target: 1.5 us).
func BenchmarkScore(b *testing.B) {
	wins := loadBenchWins(b)
	sink := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		w := &wins[i%len(wins)]
		r := Score(&w.hand, w.win, &benchSituation, &Default)
		sink += r.Total
	}
	if sink < 0 {
		b.Fatal(sink)
	}
}
