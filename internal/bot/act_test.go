package bot_test

import (
	"testing"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/table"
)

// decisionViews plays a seeded east-only game of efficient bots and
// returns the view of every seat that had something to do, in order, as
// a client sees it before it acts.
func decisionViews(tb testing.TB) []table.View {
	tb.Helper()
	t, err := table.New(table.Config{Rules: table.TenhouTonpuu})
	if err != nil {
		tb.Fatal(err)
	}
	next := walls(3)
	var views []table.View
	for steps := 0; t.Phase() != table.GameOver; steps++ {
		if steps > 100_000 {
			tb.Fatal("game too long")
		}
		if t.Phase() == table.BetweenRounds {
			w := next()
			if _, err := t.Step(table.Action{Type: table.Deal, Wall: &w}); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		for s := range table.Seat(table.NumSeats) {
			if !t.Waiting(s) {
				continue
			}
			v := t.View(s)
			views = append(views, v)
			a, ok := bot.Efficient{}.Act(&v)
			if !ok {
				tb.Fatalf("seat %d waited with nothing to do", s)
			}
			if _, err := t.Step(a); err != nil {
				tb.Fatal(err)
			}
			break
		}
	}
	return views
}

// TestEfficientActDoesNotAllocate: the decision a load generator's bot
// makes for every offer (shanten of each candidate discard included)
// allocates nothing, over every decision of a whole game.
func TestEfficientActDoesNotAllocate(t *testing.T) {
	views := decisionViews(t)
	if len(views) < 100 {
		t.Fatalf("%d decisions: want a whole game's", len(views))
	}
	i := 0
	allocs := testing.AllocsPerRun(len(views), func() {
		bot.Efficient{}.Act(&views[i%len(views)])
		i++
	})
	if allocs != 0 {
		t.Errorf("Efficient.Act: %.2f allocations a decision, want 0", allocs)
	}
}

// BenchmarkEfficientAct decides every offer of a whole game from its view,
// as the bots of `tablectl bots` do.
func BenchmarkEfficientAct(b *testing.B) {
	views := decisionViews(b)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		bot.Efficient{}.Act(&views[i%len(views)])
	}
}
