package sichuan_test

import (
	"fmt"

	botsc "github.com/mahjong-authority/authority/internal/bot/sichuan"
	"github.com/mahjong-authority/authority/internal/table/sichuan"
)

// A host deals each hand from a seeded wall and feeds the table the seats'
// actions, here those of four bots, until the hand ends.
func Example() {
	t, err := sichuan.New(sichuan.Config{Rules: sichuan.Default})
	if err != nil {
		panic(err)
	}
	w := sichuan.NewWall([32]byte{7})
	evs, _ := t.Step(sichuan.Action{Type: sichuan.Deal, Wall: &w})
	fmt.Println(evs[0], t.Phase())
	for t.Phase() != sichuan.BetweenHands {
		for s := range sichuan.Seat(sichuan.NumSeats) {
			if a, ok := (botsc.Efficient{}).Decide(t, s); ok {
				evs, _ = t.Step(a)
				for _, e := range evs {
					switch e.Body.(type) {
					case sichuan.Won, sichuan.KanPaid, sichuan.HandEnded:
						fmt.Println(e)
					}
				}
				break
			}
		}
	}
	// Output:
	// [*] hand 0 dealer=0 scores=[0 0 0 0] wall=55 exchanging
	// [*] won seat=0 tsumo hand=67p55677889s melds=[pon 4p from 1] win=5p fan=0 fans=[] value=1 deltas=[6 -2 -2 -2] scores=[6 -2 -2 -2] left
	// [*] won seat=1 tsumo hand=12366789m11234s win=6m fan=0 fans=[] value=1 deltas=[0 4 -2 -2] scores=[6 2 -4 -4] left
	// [*] won seat=2 ron from=3 hand=34445567888m35s win=4s fan=0 fans=[] value=1 deltas=[0 0 1 -1] scores=[6 2 -3 -5] left
	// [*] hand ended three_won deltas=[6 2 -3 -5] scores=[6 2 -3 -5] next_dealer=0
}
