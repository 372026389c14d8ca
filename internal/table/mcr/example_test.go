package mcr_test

import (
	"fmt"

	botmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

// A host deals each hand from a seeded 144-tile wall and feeds the table
// the seats' actions, here those of four bots, until the hand ends.
func Example() {
	t, err := mcr.New(mcr.Config{Rules: mcr.OneHand})
	if err != nil {
		panic(err)
	}
	w := wall.New144([32]byte{7})
	evs, _ := t.Step(mcr.Action{Type: mcr.Deal, Wall: &w})
	fmt.Println(evs[0], t.Phase())
	var bots [mcr.NumSeats]botmcr.Player
	for t.Phase() == mcr.Turn || t.Phase() == mcr.ClaimWindow {
		for s := range mcr.Seat(mcr.NumSeats) {
			if a, ok := bots[s].Decide(t, s); ok {
				evs, _ = t.Step(a)
				for _, e := range evs {
					switch e.Body.(type) {
					case mcr.Won, mcr.HandEnded, mcr.GameEnded:
						fmt.Println(e)
					}
				}
				break
			}
		}
	}
	// Output:
	// [*] hand 0 round=E dealer=0 winds=ESWN scores=[0 0 0 0] wall=91 turn
	// [*] won seat=0 ron from=3 hand=369m14556778p25s win=8s flowers=0 fans=[knitted_straight:12 last_tile_claim:8 concealed_hand:2 all_chows:2] total=24 deltas=[48 -8 -8 -32] scores=[48 -8 -8 -32]
	// [*] hand ended won deltas=[48 -8 -8 -32] scores=[48 -8 -8 -32] game_over
	// [*] game ended scores=[48 -8 -8 -32] table_points=[4 1.5 1.5 0]
}

// Winds gives the prevalent wind and each seat's wind of every hand: the
// seats change before hands 5, 9 and 13.
func ExampleWinds() {
	for _, i := range []int{0, 1, 4, 8, 12} {
		round, winds := mcr.Winds(i)
		fmt.Println(i, round, winds)
	}
	// Output:
	// 0 E [E S W N]
	// 1 E [N E S W]
	// 4 S [S E N W]
	// 8 W [N W E S]
	// 12 N [W N S E]
}
