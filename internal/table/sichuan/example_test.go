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
	// [*] won seat=2 ron from=1 hand=2344455677889m win=1m fan=2 fans=[qing_yi_se:2] value=4 deltas=[0 -4 4 0] scores=[0 -4 4 0] left
	// [*] won seat=1 tsumo hand=12389m11234s melds=[pon 6m from 3] win=7m fan=0 fans=[] value=1 deltas=[-2 4 0 -2] scores=[-2 0 4 -2] left
	// [*] won seat=3 tsumo hand=1223456p234678s win=2p fan=0 fans=[] value=1 deltas=[-2 0 0 2] scores=[-4 0 4 0] left
	// [*] hand ended three_won deltas=[-4 0 4 0] scores=[-4 0 4 0] next_dealer=2
}
