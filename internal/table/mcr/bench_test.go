package mcr_test

import (
	"encoding/binary"
	"runtime"
	"testing"

	botmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// BenchmarkGame plays whole 16-hand games in process with four bots
// (package internal/bot/mcr); the table asks the judge after every discard
// for every seat and after every draw for the drawer, through its cached
// waits. It reports hands per second (rounds/s, to compare with the other
// rule sets' benchmarks) and allocations per hand, bots included. Run it
// with -cpu 1.
func BenchmarkGame(b *testing.B) {
	var bots [mcr.NumSeats]botmcr.Player
	hands := 0
	var seed [32]byte
	var evs []mcr.Event
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		t, err := mcr.New(mcr.Config{Rules: mcr.Default})
		if err != nil {
			b.Fatal(err)
		}
		for t.Phase() != mcr.GameOver {
			var a mcr.Action
			if t.Phase() == mcr.BetweenHands {
				hands++
				binary.LittleEndian.PutUint64(seed[:], uint64(hands))
				w := wall.New144(seed)
				a = mcr.Action{Type: mcr.Deal, Wall: &w}
			} else {
				for s := range mcr.Seat(mcr.NumSeats) {
					var ok bool
					if a, ok = bots[s].Decide(t, s); ok {
						break
					}
				}
			}
			if evs, err = t.StepInto(evs[:0], a); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "rounds/s")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(hands), "allocs/round")
}

// TestStepsDoNotAllocate plays timed-out hands (every seat plays its
// Default) on one table: after the first hand has warmed its buffers,
// draws and discards allocate nothing; a hand allocates only the boxes of
// its claim offers (an offer carries its options), of its start and end
// (HandStarted, four Dealt, HandEnded), and now and then a new block of
// tiles for the dealt hands, besides the test's wall.
func TestStepsDoNotAllocate(t *testing.T) {
	tb, err := mcr.New(mcr.Config{Rules: mcr.Default})
	if err != nil {
		t.Fatal(err)
	}
	var evs []mcr.Event
	hand := uint64(0)
	offers := 0
	play := func() {
		var seed [32]byte
		hand++
		binary.LittleEndian.PutUint64(seed[:], hand)
		w := wall.New144(seed)
		a := mcr.Action{Type: mcr.Deal, Wall: &w}
		for {
			if evs, err = tb.StepInto(evs[:0], a); err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if _, ok := e.Body.(mcr.ClaimOffer); ok {
					offers++
				}
			}
			if tb.Phase() != mcr.Turn && tb.Phase() != mcr.ClaimWindow {
				return
			}
			for s := range mcr.Seat(mcr.NumSeats) {
				var ok bool
				if a, ok = tb.Default(s); ok {
					break
				}
			}
		}
	}
	play()
	evs = make([]mcr.Event, 0, 1024)
	offers = 0
	const hands = 8
	allocs := testing.AllocsPerRun(hands-1, play) * hands // AllocsPerRun plays once more to warm up
	if want := offers + 8*hands; allocs > float64(want) {
		t.Errorf("%d hands of defaults allocate %v times with %d claim offers, want at most %d", hands, allocs, offers, want)
	}
}
