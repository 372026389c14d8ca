package sichuan_test

import (
	"runtime"
	"testing"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/table/sichuan"
)

// TestQuietStepsDoNotAllocate: a step whose events are only draws and
// discards (the bulk of a hand: no claim offered, no call, no win)
// allocates nothing, the bot's decision included, once the table has
// warmed up.
func TestQuietStepsDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the memory statistics around every step")
	}
	tb, err := sichuan.New(sichuan.Config{Rules: sichuan.Default})
	if err != nil {
		t.Fatal(err)
	}
	var evs []sichuan.Event
	var before, after runtime.MemStats
	quiet, allocating := 0, 0
	hands := 0
	for steps := 0; tb.Phase() != sichuan.MatchOver && steps < 100_000; steps++ {
		if tb.Phase() == sichuan.BetweenHands {
			w := sichuan.NewWall([32]byte{byte(hands), 3})
			hands++
			if evs, err = tb.StepInto(evs[:0], sichuan.Action{Type: sichuan.Deal, Wall: &w}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for s := range sichuan.Seat(sichuan.NumSeats) {
			if !tb.Waiting(s) {
				continue
			}
			runtime.ReadMemStats(&before)
			a, _ := (botsc.Efficient{}).Decide(tb, s)
			evs, err = tb.StepInto(evs[:0], a)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if !onlyDrawsAndDiscards(evs) || hands == 1 {
				break
			}
			quiet++
			if after.Mallocs != before.Mallocs {
				allocating++
				t.Errorf("%v: %d allocations for %v", a, after.Mallocs-before.Mallocs, evs)
			}
			break
		}
	}
	if quiet < 100 {
		t.Fatalf("only %d quiet steps", quiet)
	}
}

func onlyDrawsAndDiscards(evs []sichuan.Event) bool {
	for _, e := range evs {
		switch e.Body.(type) {
		case sichuan.Drew, sichuan.Discarded:
		default:
			return false
		}
	}
	return len(evs) > 0
}
