package record_test

import (
	"fmt"
	"os"

	"github.com/mahjong-authority/authority/internal/record"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// A Recorder follows a table step by step; its record holds the rounds
// played to their end.
func ExampleRecorder() {
	t, _ := table.New(table.Config{Rules: table.TenhouHanchan})
	rec := record.NewRecorder("example", table.TenhouHanchan, [4]int{})
	w, _ := wall.Stacked(&wall.Script{
		Hands: [4][]tile.Tile{tile.MustParse("123m456p789s1122z")}, // the dealer's
		Draws: tile.MustParse("2z"),
	}, true)
	for _, a := range []table.Action{{Type: table.Deal, Wall: &w}, {Seat: 0, Type: table.Tsumo}} {
		evs, err := t.Step(a)
		if err != nil {
			panic(err)
		}
		rec.Step(a, evs)
	}
	g := rec.Game()
	r := g.Rounds[0]
	fmt.Println(len(g.Rounds), "round, partial:", g.Partial)
	fmt.Println("dealer's hand:", r.Hands[0], "draws:", r.Draws)
	fmt.Println("actions:", r.Actions)
	fmt.Println("deltas:", r.Result.Deltas)
	// Output:
	// 1 round, partial: true
	// dealer's hand: 123m456p789s1122z draws: 2z
	// actions: [{0 tsumo    false}]
	// deltas: [48000 -16000 -16000 -16000]
}

// Verify checks a native record against its seeds, its commitments and a
// replay.
func ExampleVerify() {
	b, err := os.ReadFile("../../testdata/records/seeded-game.jsonl")
	if err != nil {
		panic(err)
	}
	g, _ := record.Decode(b)
	rep, _ := record.Verify(g)
	fmt.Println(rep.Err(), rep.Verified, "of", rep.Rounds, "rounds; seed chain:", rep.Chain, "replayed:", rep.Replayed)

	g.Rounds[3].Draws = "9m" + g.Rounds[3].Draws[2:] // it was 1z
	rep, _ = record.Verify(g)
	fmt.Println(rep.Problems[0])
	// Output:
	// <nil> 15 of 15 rounds; seed chain: true replayed: true
	// round 3: draws[0]: record 9m, wall position 52 holds 1z
}
