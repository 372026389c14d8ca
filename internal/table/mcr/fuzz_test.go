package mcr_test

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"reflect"
	"testing"

	botmcr "github.com/mahjong-authority/authority/internal/bot/mcr"
	"github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// FuzzTable plays whole games from a seed, each step either the bot's
// choice (share in 256 of the steps, so that games reach wins, calls and
// kongs) or a random legal action of a random seat the table waits for.
// After every step it checks the invariants (Verify: 144 tiles each in
// one place, scores summing to zero, cached waits) and that event numbers
// follow on; now and then it tries a random action and, when Step refuses
// it, requires every view to be unchanged.
func FuzzTable(f *testing.F) {
	f.Add(uint64(1), uint8(200), uint8(0))
	f.Add(uint64(2), uint8(0), uint8(1))
	f.Add(uint64(3), uint8(255), uint8(2))
	f.Fuzz(func(t *testing.T, seed uint64, share, hands uint8) {
		playMixed(t, seed, int(share), 1+int(hands)%3)
	})
}

func playMixed(t testing.TB, seed uint64, share, hands int) {
	rng := rand.New(rand.NewPCG(seed, 0x6d6372))
	tb, err := mcr.New(mcr.Config{Rules: mcr.Rules{Name: "mcr_fuzz", Hands: hands}})
	if err != nil {
		t.Fatal(err)
	}
	var bots [mcr.NumSeats]botmcr.Player
	var last uint64
	dealt := 0
	for steps := 0; tb.Phase() != mcr.GameOver; steps++ {
		if steps > 10_000*hands {
			t.Fatalf("seed %d: the game did not end in %d steps", seed, steps)
		}
		var a mcr.Action
		if tb.Phase() == mcr.BetweenHands {
			var ws [32]byte
			binary.LittleEndian.PutUint64(ws[:], seed)
			binary.LittleEndian.PutUint64(ws[8:], uint64(dealt))
			w := wall.New144(ws)
			a = mcr.Action{Type: mcr.Deal, Wall: &w}
			dealt++
		} else {
			var waiting []mcr.Seat
			for s := range mcr.Seat(mcr.NumSeats) {
				if tb.Waiting(s) {
					waiting = append(waiting, s)
				}
			}
			if len(waiting) == 0 {
				t.Fatalf("seed %d: phase %v waits for nobody", seed, tb.Phase())
			}
			s := waiting[rng.IntN(len(waiting))]
			if rng.IntN(256) < share {
				a, _ = bots[s].Decide(tb, s)
			} else {
				legal := tb.Legal(s)
				a = legal[rng.IntN(len(legal))]
			}
			if rng.IntN(8) == 0 {
				tryIllegal(t, tb, rng)
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatalf("seed %d: legal %v refused: %v", seed, a, err)
		}
		for _, e := range evs {
			if e.Seq != last+1 {
				t.Fatalf("seed %d: event %v after seq %d", seed, e, last)
			}
			last = e.Seq
		}
		if err := tb.Verify(); err != nil {
			t.Fatalf("seed %d: after %v: %v", seed, a, err)
		}
	}
}

// tryIllegal steps a random action; if the table refuses it, nothing may
// have changed, and the error must match one of the sentinels.
func tryIllegal(t testing.TB, tb *mcr.Table, rng *rand.Rand) {
	a := mcr.Action{Seat: mcr.Seat(rng.IntN(mcr.NumSeats + 1)), Type: mcr.ActionType(1 + rng.IntN(int(mcr.Pass))), Tile: randTile(rng), Run: randTile(rng).Kind()}
	switch a.Type {
	case mcr.Deal:
		return
	case mcr.Ron, mcr.Pon, mcr.OpenKan, mcr.Chi:
		// An answer's tile is the claim tile, whatever it says.
		if x, ok := tb.ClaimTile(); ok {
			a.Tile = x
		}
	case mcr.Tsumo, mcr.Pass:
		a.Tile = 0
	}
	if a.Type != mcr.Chi {
		a.Run = 0
	}
	legal := tb.Legal(a.Seat)
	for _, l := range legal {
		if l == a {
			return
		}
	}
	var before [mcr.NumSeats + 1]mcr.View
	for s := range before {
		before[s] = tb.View(mcr.Seat(s))
	}
	_, err := tb.Step(a)
	if err == nil {
		t.Fatalf("%v not in Legal %v but accepted", a, legal)
	}
	var ae *mcr.ActionError
	if !errors.As(err, &ae) {
		t.Fatalf("%v: error %v is not an ActionError", a, err)
	}
	for s := range before {
		if v := tb.View(mcr.Seat(s)); !reflect.DeepEqual(v, before[s]) {
			t.Fatalf("refused %v changed seat %d's view", a, s)
		}
	}
}

// randTile is any byte a tile might be: the 42 kinds, a red five, junk.
func randTile(rng *rand.Rand) tile.Tile {
	if rng.IntN(8) == 0 {
		return tile.Tile(rng.IntN(256))
	}
	return tile.Tile(rng.IntN(tile.NumAllKinds))
}

// TestMixedGames is FuzzTable over a spread of seeds and bot shares.
func TestMixedGames(t *testing.T) {
	for seed := range uint64(24) {
		playMixed(t, seed, int(seed*37%256), 1+int(seed%3))
	}
}
