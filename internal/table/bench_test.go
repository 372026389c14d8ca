package table_test

import (
	"encoding/binary"
	"runtime"
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

// BenchmarkHanchan plays whole east-south games in process with four
// Efficient bots (discard for the lowest shanten, win whenever possible,
// riichi when tenpai, never call); the table runs the judge after every
// discard. It reports rounds per second and allocations per round.
func BenchmarkHanchan(b *testing.B) {
	bots := [table.NumSeats]bot.Bot{bot.Efficient{}, bot.Efficient{}, bot.Efficient{}, bot.Efficient{}}
	rounds := 0
	var seed [32]byte
	next := func() wall.Wall {
		rounds++
		binary.LittleEndian.PutUint64(seed[:], uint64(rounds))
		return wall.New(seed, true)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for b.Loop() {
		t, err := table.New(table.Config{Rules: table.TenhouHanchan})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := bot.Play(t, &bots, next, 1_000_000); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(rounds)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(rounds), "allocs/round")
	b.ReportMetric(float64(rounds)/float64(b.N), "rounds/game")
}
