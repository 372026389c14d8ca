package sichuan_test

import (
	"encoding/binary"
	"runtime"
	"testing"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/table/sichuan"
)

// BenchmarkMatch plays whole eight-hand matches in process with four
// Efficient bots (exchange and void the shortest suit, void first, lowest
// shanten, win whenever possible, pon and kan when it does not hurt); the
// table asks the judge after every discard. It reports hands per second
// (rounds/s, to compare with the riichi BenchmarkHanchan) and allocations
// per hand.
func BenchmarkMatch(b *testing.B) {
	for _, bc := range []struct {
		name  string
		rules sichuan.Rules
	}{{"bloody_battle", sichuan.Default}, {"bloody_river", sichuan.BloodyRiver}} {
		b.Run(bc.name, func(b *testing.B) {
			var bots [sichuan.NumSeats]botsc.Efficient
			hands := 0
			var seed [32]byte
			next := func() sichuan.Wall {
				hands++
				binary.LittleEndian.PutUint64(seed[:], uint64(hands))
				return sichuan.NewWall(seed)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for b.Loop() {
				t, err := sichuan.New(sichuan.Config{Rules: bc.rules})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := botsc.Play(t, &bots, next, 1_000_000); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "rounds/s")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(hands), "allocs/round")
		})
	}
}
