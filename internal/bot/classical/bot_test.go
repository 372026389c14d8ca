package classical

import (
	"slices"
	"testing"

	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/table/classical/classicaltest"
	"github.com/mahjong-authority/authority/internal/wall"
)

// playGame plays a whole game of four bots on walls from seed, with the
// invariant check after every step, and counts the events of interest.
func playGame(t *testing.T, rules ct.Rules, seed uint64) (tb *ct.Table, wins, washes, fishing, special int) {
	tb, err := ct.New(ct.Config{Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	hands := 0
	var v ct.View
	for steps := 0; tb.Phase() != ct.GameOver; steps++ {
		if steps > 200_000 {
			t.Fatal("the game did not end")
		}
		between := tb.Phase() == ct.BetweenHands
		a, ok := classicaltest.Next(tb, seed, &hands, &v, Efficient{}.Act)
		if !ok {
			t.Fatalf("seat %d waited for, nothing to do", v.Seat)
		}
		if !between && !slices.Contains(v.Legal, a) {
			t.Fatalf("seat %d chose %v, not among %v", v.Seat, a, v.Legal)
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("%v: %v", a, err)
		}
		if err := tb.Verify(); err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			switch b := e.Body.(type) {
			case ct.Fishing:
				fishing++
			case ct.HandEnded:
				if b.Kind == ct.EndWash {
					washes++
				} else {
					wins++
				}
				for _, l := range b.Lines {
					if l.Special != 0 {
						special++
					}
				}
			}
		}
	}
	return tb, wins, washes, fishing, special
}

// TestBotGames plays whole games: each ends, bots announce fishing and
// go out, the same seeds give the same scores.
func TestBotGames(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 2
	}
	total := [4]int{}
	for seed := range uint64(n) {
		rules := ct.Default
		if seed%2 == 1 {
			rules.FishingFirst = false
		}
		tb, wins, washes, fishing, special := playGame(t, rules, seed)
		again, _, _, _, _ := playGame(t, rules, seed)
		if tb.Scores() != again.Scores() {
			t.Fatalf("seed %d: two runs ended %v and %v", seed, tb.Scores(), again.Scores())
		}
		total[0] += wins
		total[1] += washes
		total[2] += fishing
		total[3] += special
	}
	t.Logf("%d games: %d wins, %d washes, %d fishing announcements, %d special-hand lines", n, total[0], total[1], total[2], total[3])
	if total[0] == 0 || total[2] == 0 {
		t.Errorf("bots never went out (%d) or never announced fishing (%d)", total[0], total[2])
	}
}

func BenchmarkPlay(b *testing.B) {
	rules := ct.Default
	rules.Rounds = 1
	hands := 0
	var bots [ct.NumSeats]Efficient
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		tb, _ := ct.New(ct.Config{Rules: rules})
		n := 0
		next := func() wall.Wall144 {
			n++
			return classicaltest.Wall(uint64(i), n-1)
		}
		if _, err := Play(tb, &bots, next, 100_000); err != nil {
			b.Fatal(err)
		}
		hands += n
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "rounds/s")
}

// BenchmarkBotDecide decides every offer of a one-round game from its
// view, as the bots of `tablectl bots --rules classical` do: the cost of a
// decision.
func BenchmarkBotDecide(b *testing.B) {
	rules := ct.Default
	rules.Rounds = 1
	tb, _ := ct.New(ct.Config{Rules: rules})
	hands := 0
	var views []ct.View
	var v ct.View
	for steps := 0; tb.Phase() != ct.GameOver; steps++ {
		if steps > 200_000 {
			b.Fatal("the game did not end")
		}
		// A view of its own for each decision: v is filled again next step.
		a, _ := classicaltest.Next(tb, 0, &hands, &v, func(v *ct.View) (ct.Action, bool) {
			views = append(views, tb.View(v.Seat))
			return Efficient{}.Act(v)
		})
		if _, err := tb.Step(a); err != nil {
			b.Fatalf("%v: %v", a, err)
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Efficient{}.Act(&views[i%len(views)])
	}
}
