package mcr

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/wall"
)

// seedOf makes a wall seed from a number, for tests.
func seedOf(n uint64) [32]byte {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(n >> (8 * i))
	}
	s[31] = 0x5a
	return s
}

// playRandom plays a whole game with random legal actions drawn from rng,
// checking the invariants after every step and that a refused action
// changes nothing. It returns the table and every event.
func playRandom(tb testing.TB, rules Rules, rng *rand.Rand, maxSteps int) (*Table, []Event) {
	tb.Helper()
	t, err := New(Config{Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	var all []Event
	var lastSeq uint64
	step := func(a Action) {
		evs, err := t.Step(a)
		if err != nil {
			tb.Fatalf("%v: %v", a, err)
		}
		for _, e := range evs {
			if e.Seq != lastSeq+1 {
				tb.Fatalf("seq %d after %d", e.Seq, lastSeq)
			}
			lastSeq = e.Seq
		}
		all = append(all, evs...)
		if err := t.Verify(); err != nil {
			tb.Fatalf("after %v: %v", a, err)
		}
	}
	for i := 0; i < maxSteps && t.Phase() != GameOver; i++ {
		if t.Phase() == BetweenHands {
			w := wall.New144(seedOf(rng.Uint64()))
			step(Action{Type: Deal, Wall: &w})
			continue
		}
		var legal []Action
		for s := range Seat(NumSeats) {
			legal = t.AppendLegal(legal, s)
		}
		if len(legal) == 0 {
			tb.Fatalf("phase %v: nobody may act", t.Phase())
		}
		// Now and then try something illegal: it must change nothing.
		if rng.IntN(8) == 0 {
			bad := Action{Seat: Seat(rng.IntN(NumSeats)), Type: ActionType(1 + rng.IntN(int(Pass))), Tile: legal[0].Tile + 1, Run: legal[0].Run + 1}
			before := t.View(bad.Seat)
			if evs, err := t.Step(bad); err == nil {
				// It was legal after all: keep its events.
				for _, e := range evs {
					if e.Seq != lastSeq+1 {
						tb.Fatalf("seq %d after %d", e.Seq, lastSeq)
					}
					lastSeq = e.Seq
				}
				all = append(all, evs...)
				if err := t.Verify(); err != nil {
					tb.Fatalf("after %v: %v", bad, err)
				}
				continue
			} else if !errors.Is(err, ErrPhase) && !errors.Is(err, ErrNotToAct) && !errors.Is(err, ErrIllegal) && !errors.Is(err, ErrBadAction) && !errors.Is(err, ErrGameOver) {
				tb.Fatalf("%v: error %v matches no sentinel", bad, err)
			}
			if after := t.View(bad.Seat); !reflect.DeepEqual(before, after) {
				tb.Fatalf("refused %v changed the table", bad)
			}
		}
		// Wins are rare at random: take them when offered, else play at random.
		a := legal[rng.IntN(len(legal))]
		for _, l := range legal {
			if (l.Type == Tsumo || l.Type == Ron) && rng.IntN(4) != 0 {
				a = l
			}
		}
		step(a)
	}
	return t, all
}

func TestRandomGames(t *testing.T) {
	for seed := range uint64(20) {
		rules := OneHand
		if seed%5 == 0 {
			rules = Default
		}
		tb, _ := playRandom(t, rules, rand.New(rand.NewPCG(seed, 7)), 100000)
		if tb.Phase() != GameOver {
			t.Fatalf("seed %d: game not over", seed)
		}
	}
}
