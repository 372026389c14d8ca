package sichuan_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/fair"
	rsc "github.com/mahjong-authority/authority/internal/record/sichuan"
	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// A recorder fed by the engine's steps makes the record of a match, which
// Verify checks: every wall against its seed and commitment, and a replay
// through the engine. Here every seat plays what a timed-out seat plays.
func ExampleVerify() {
	rules := sc.Default
	rules.Hands = 1
	t, _ := sc.New(sc.Config{Rules: rules})
	rec := rsc.NewRecorder("t-1", rules)
	seed := fair.RoundSeed([32]byte{1}, 0)
	w := sc.NewWall(seed)
	w.Commitment = fair.Commit(seed, "t-1", 0)
	a := sc.Action{Type: sc.Deal, Wall: &w}
	for t.Phase() != sc.MatchOver {
		evs, err := t.Step(a)
		if err != nil {
			panic(err)
		}
		rec.Step(a, evs)
		for s := range sc.Seat(sc.NumSeats) {
			if d, ok := t.Default(s); ok {
				a = d
				break
			}
		}
	}
	g := rec.Game()
	rep, err := rsc.Verify(g)
	fmt.Println(len(g.Rounds), g.Partial, err, rep.Err(), rep.Replayed)
	// Output:
	// 1 false <nil> <nil> true
}
