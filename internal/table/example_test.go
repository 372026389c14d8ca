package table_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// A round starts with a Deal carrying its wall; here a stacked one, so the
// dealer (seat 0) is tenpai and seat 1 can ron its first discard.
func Example() {
	t, err := table.New(table.Config{Rules: table.TenhouHanchan})
	if err != nil {
		panic(err)
	}
	w, err := wall.Stacked(&wall.Script{
		Hands: [4][]tile.Tile{
			tile.MustParse("19m19p19s1234567z"),
			tile.MustParse("234m567p345s66s34m"),
			tile.MustParse("2468p2468s77z88m9m"),
			tile.MustParse("3579p1379s77m66z8p"),
		},
		Draws: tile.MustParse("5m"),
		Dora:  tile.MustParse("9p"),
	}, true)
	if err != nil {
		panic(err)
	}
	show := func(evs []table.Event) {
		for _, e := range evs {
			if e.To.Sees(1) { // what seat 1 sees
				fmt.Println(e)
			}
		}
	}
	evs, _ := t.Step(table.Action{Type: table.Deal, Wall: &w})
	show(evs)
	evs, _ = t.Step(table.Action{Seat: 0, Type: table.Discard, Tile: tile.MustParse("5m")[0]})
	show(evs)
	fmt.Println(t.Phase(), t.Legal(1))
	evs, err = t.Step(table.Action{Seat: 1, Type: table.Ron})
	if err != nil {
		panic(err)
	}
	show(evs)
	// Output:
	// [*] round E1 dealer=0 honba=0 sticks=0 scores=[25000 25000 25000 25000] dora=9p wall=70
	// [1] dealt seat=1 23344m567p34566s
	// [*] drew seat=0 wall=69
	// [*] discarded seat=0 5m tsumogiri
	// [1] offer seat=1 ron, chi 34m, pass
	// claim_window [seat 1 ron seat 1 chi 34m seat 1 pass]
	// [*] won seat=1 ron from=0 hand=23344m567p34566s win=5m han=2 fu=30 yaku=[pinfu:1 tanyao:1] points=2000 deltas=[-2000 2000 0 0]
	// [*] round ended win deltas=[-2000 2000 0 0] scores=[23000 27000 25000 25000] sticks=0 honba=0
}

// A host that is done with each step's events before the next step (it
// sends them on at once) hands the table one buffer to reuse: StepInto
// appends to it, and steps allocate no room for events.
func ExampleTable_StepInto() {
	t, err := table.New(table.Config{Rules: table.TenhouHanchan})
	if err != nil {
		panic(err)
	}
	w := wall.New([32]byte{1}, true)
	var evs []table.Event
	evs, _ = t.StepInto(evs[:0], table.Action{Type: table.Deal, Wall: &w})
	fmt.Println(len(evs), "events for the deal")
	// The dealer throws the tile it drew.
	drawn := t.Brief(0).Drawn
	evs, _ = t.StepInto(evs[:0], table.Action{Seat: 0, Type: table.Discard, Tile: drawn, Tsumogiri: true})
	for _, e := range evs {
		if e.To.Sees(1) {
			fmt.Println(e)
		}
	}
	// Output:
	// 7 events for the deal
	// [*] discarded seat=0 3p tsumogiri
	// [*] drew seat=1 wall=68
	// [1] drew seat=1 6s wall=68
}

// Between rounds a table is a few numbers and the round it still shows: a
// host saves its snapshot at every round boundary and restores the table
// from it, instead of replaying the game from its first deal.
func ExampleTable_Snapshot() {
	t, err := table.New(table.Config{Rules: table.TenhouHanchan})
	if err != nil {
		panic(err)
	}
	w, err := wall.Stacked(&wall.Script{
		Hands: [4][]tile.Tile{
			tile.MustParse("19m19p19s1234567z"),
			tile.MustParse("234m567p345s66s34m"),
			tile.MustParse("2468p2468s77z88m9m"),
			tile.MustParse("3579p1379s77m66z8p"),
		},
		Draws: tile.MustParse("5m"),
		Dora:  tile.MustParse("9p"),
	}, true)
	if err != nil {
		panic(err)
	}
	for _, a := range []table.Action{
		{Type: table.Deal, Wall: &w},
		{Seat: 0, Type: table.Discard, Tile: tile.MustParse("5m")[0]},
		{Seat: 1, Type: table.Ron},
	} {
		if _, err := t.Step(a); err != nil {
			panic(err)
		}
	}
	snap, err := t.Snapshot()
	if err != nil {
		panic(err)
	}
	raw, _ := snap.MarshalBinary()
	var saved table.Snapshot
	if err := saved.UnmarshalBinary(raw); err != nil {
		panic(err)
	}
	back, err := table.Restore(table.Config{Rules: table.TenhouHanchan}, saved)
	if err != nil {
		panic(err)
	}
	v := back.View(1)
	fmt.Println(v.Phase, v.RoundWind, v.Number, v.Scores, v.Seq == t.View(1).Seq)
	// Output:
	// between_rounds E 2 [23000 27000 25000 25000] true
}
