package classical

import (
	"testing"
)

// BenchmarkGame plays whole one-round games with every seat taking Mah
// Jong and fishing when it may and otherwise its Default, and reports
// rounds (hands) per second.
func BenchmarkGame(b *testing.B) {
	rules := Default
	rules.Rounds = 1
	var evs []Event
	var legal []Action
	hands := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tb, _ := New(Config{Rules: rules})
		for n := 0; tb.Phase() != GameOver; {
			var act Action
			if tb.Phase() == BetweenHands {
				act = Action{Type: Deal, Wall: seedWall(uint64(i), n)}
				n++
				hands++
			} else {
				for s := range Seat(NumSeats) {
					if tb.Waiting(s) {
						act, _ = tb.Default(s)
						legal = tb.AppendLegal(legal[:0], s)
						if legal[0].Type == MahJong || legal[0].Type == Fish {
							act = legal[0]
						}
						break
					}
				}
			}
			var err error
			if evs, err = tb.StepInto(evs[:0], act); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "rounds/s")
}
