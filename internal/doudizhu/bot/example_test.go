package bot_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/bot"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// Three bots play a deal to its end.
func Example() {
	t, _ := table.New(table.Config{Rules: table.Classic})
	var bots [table.NumSeats]bot.Bot
	var seed [32]byte
	for t.Phase() != table.MatchOver {
		if t.Phase() == table.BetweenDeals {
			seed[0]++ // a new shuffle for a thrown-in deal
			d := deck.New(seed)
			t.Step(table.Action{Type: table.Deal, Deck: &d})
			continue
		}
		v := t.View(t.ToAct())
		a, _ := bots[v.Seat].Act(&v)
		evs, _ := t.Step(a)
		for _, e := range evs {
			if end, ok := e.Body.(table.DealEnded); ok {
				fmt.Println("landlord", end.Landlord, "won:", end.LandlordWon, "scores", end.Scores)
			}
		}
	}
	// Output:
	// landlord 2 won: true scores [-3 -3 6]
}
