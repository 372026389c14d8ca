package sichuan_test

import (
	"fmt"
	"runtime"
	"testing"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/table/sichuan"
)

// TestQuietStepsDoNotAllocate: a step whose events are only draws and
// discards (the bulk of a hand: no claim offered, no call, no win)
// allocates nothing, the bot's decision included, once the table has
// warmed up.
//
// The memory statistics count the whole process, and the runtime or the
// test framework sometimes allocates on another goroutine during a step.
// The match is deterministic, so it is played twice: a step fails only if
// it allocates both times.
func TestQuietStepsDoNotAllocate(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the memory statistics around every step")
	}
	first, quiet := allocatingQuietSteps(t)
	if quiet < 100 {
		t.Fatalf("only %d quiet steps", quiet)
	}
	if len(first) == 0 {
		return
	}
	second, _ := allocatingQuietSteps(t)
	for step, what := range first {
		if _, again := second[step]; again {
			t.Errorf("step %d, %s", step, what)
		}
	}
}

// allocatingQuietSteps plays a seeded match with efficient bots and
// returns the quiet steps that allocated, by step number, and how many
// quiet steps there were.
func allocatingQuietSteps(t *testing.T) (map[int]string, int) {
	t.Helper()
	tb, err := sichuan.New(sichuan.Config{Rules: sichuan.Default})
	if err != nil {
		t.Fatal(err)
	}
	var evs []sichuan.Event
	var before, after runtime.MemStats
	allocating := map[int]string{}
	quiet, hands := 0, 0
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
			if n := after.Mallocs - before.Mallocs; n != 0 {
				allocating[steps] = fmt.Sprintf("%v: %d allocations for %v", a, n, evs)
			}
			break
		}
	}
	return allocating, quiet
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
