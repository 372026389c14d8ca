package table_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/deck"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// A deal from a stacked deck: seat 0 bids 3, takes the kitty and plays
// out its hand while the farmers pass - a spring.
func Example() {
	t, _ := table.New(table.Config{Rules: table.Classic})
	d, _ := deck.Stacked([deck.Seats]string{"33334444555566667", "777888999TTTJJJQQ", ""}, "2XD", 0)
	step := func(a table.Action) {
		evs, err := t.Step(a)
		if err != nil {
			fmt.Println(err)
			return
		}
		for _, e := range evs {
			if !e.To.Private {
				fmt.Println(table.Format(e.Body))
			}
		}
	}
	step(table.Action{Type: table.Deal, Deck: &d})
	step(table.Action{Seat: 0, Type: table.Bid, Bid: 3})
	step(table.Action{Seat: 0, Type: table.Play, Cards: card.MustParse("33344455566672XD")})
	step(table.Action{Seat: 1, Type: table.Pass})
	step(table.Action{Seat: 2, Type: table.Pass})
	step(table.Action{Seat: 0, Type: table.Play, Cards: card.MustParse("3456")})
	step(table.Action{Seat: 0, Type: table.Play, Cards: card.MustParse("3")})
	// Output:
	// deal_started index=0 number=1 first=0 scores=0,0,0
	// bid seat=0 bid=3 base=3
	// landlord seat=0 kitty=2XD base=3
	// played seat=0 33344455566672XD airplane_single_wings 3/4 left=4 bombs=0
	// passed seat=1
	// passed seat=2 lead
	// play: 3456 is not a play: doudizhu: illegal action
	// played seat=0 3 single 3/1 left=3 bombs=0
}
