package mcr

import (
	"math/rand/v2"
	"testing"

	jmcr "github.com/mahjong-authority/authority/internal/judge/mcr"
	"github.com/mahjong-authority/authority/internal/tile"

	tm "github.com/mahjong-authority/authority/internal/table/mcr"
	"github.com/mahjong-authority/authority/internal/wall"
)

func seedOf(n uint64) [32]byte {
	var s [32]byte
	for i := range 8 {
		s[i] = byte(n >> (8 * i))
	}
	s[31] = 0xb0
	return s
}

// playGame plays a whole game of four bots from seed, checking the
// table's invariants after every step when check is set. It returns the
// table and the number of hands won.
func playGame(tb testing.TB, rules tm.Rules, seed uint64, check bool) (*tm.Table, int) {
	t, err := tm.New(tm.Config{Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	var ps [tm.NumSeats]Player
	var evs []tm.Event
	wins := 0
	for hand := uint64(0); t.Phase() != tm.GameOver; {
		var a tm.Action
		if t.Phase() == tm.BetweenHands {
			w := wall.New144(seedOf(seed*64 + hand))
			hand++
			a = tm.Action{Type: tm.Deal, Wall: &w}
		} else {
			found := false
			for s := range tm.Seat(tm.NumSeats) {
				if a, found = ps[s].Decide(t, s); found {
					break
				}
			}
			if !found {
				tb.Fatalf("phase %v: no bot has anything to do", t.Phase())
			}
		}
		evs, err = t.StepInto(evs[:0], a)
		if err != nil {
			tb.Fatalf("bot played %v: %v", a, err)
		}
		for _, e := range evs {
			if _, ok := e.Body.(tm.Won); ok {
				wins++
			}
		}
		if check {
			if err := t.Verify(); err != nil {
				tb.Fatalf("after %v: %v", a, err)
			}
		}
	}
	return t, wins
}

// TestBotGames plays whole 16-hand games of bots: every action legal,
// invariants after every step, and the bots win hands.
func TestBotGames(t *testing.T) {
	total, wins := 0, 0
	for seed := range uint64(4) {
		tb, w := playGame(t, tm.Default, seed, true)
		if tb.Hands() != 16 {
			t.Fatalf("seed %d: %d hands", seed, tb.Hands())
		}
		total += tb.Hands()
		wins += w
	}
	t.Logf("%d wins in %d hands", wins, total)
	if wins < total/4 {
		t.Errorf("bots won %d of %d hands, want at least a quarter", wins, total)
	}
}

// decisionViews plays a seeded game of four hands of bots and returns the view
// of every seat that had something to do, as a client sees it before it
// acts.
func decisionViews(tb testing.TB) []tm.View {
	tb.Helper()
	rules := tm.Default
	rules.Hands = 4
	t, err := tm.New(tm.Config{Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	var p Player
	var views []tm.View
	for hand := uint64(0); t.Phase() != tm.GameOver; {
		var a tm.Action
		if t.Phase() == tm.BetweenHands {
			w := wall.New144(seedOf(hand))
			hand++
			a = tm.Action{Type: tm.Deal, Wall: &w}
		} else {
			found := false
			for s := range tm.Seat(tm.NumSeats) {
				if t.Waiting(s) {
					v := t.View(s)
					views = append(views, v)
					a, found = p.Act(&v)
					break
				}
			}
			if !found {
				tb.Fatalf("phase %v: no bot has anything to do", t.Phase())
			}
		}
		if _, err := t.Step(a); err != nil {
			tb.Fatalf("bot played %v: %v", a, err)
		}
	}
	return views
}

// BenchmarkBotDecide decides every offer of four hands from its view, as
// the bots of `tablectl bots --rules mcr` do: the cost of a decision.
func BenchmarkBotDecide(b *testing.B) {
	views := decisionViews(b)
	var p Player
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Act(&views[i%len(views)])
	}
}

// TestShanten: the bot's shanten is the judge's, on random hands of every
// size a decision asks about, knitted straights among them.
func TestShanten(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	knitted := [9]tile.Kind{0, 3, 6, 10, 13, 16, 20, 23, 26} // 147m 258p 369s
	for i := range 200_000 {
		var c tile.Counts
		n := []int{14, 13, 11, 10, 8}[i%5]
		if i%3 == 0 {
			// Most of a knitted straight, and the rest at random.
			for _, k := range knitted[:6+rng.IntN(4)] {
				c[k]++
			}
		}
		for c.Total() < n {
			if k := tile.Kind(rng.IntN(tile.NumKinds)); c[k] < 4 {
				c[k]++
			}
		}
		if got, want := shanten(&c), jmcr.Shanten(&c); got != want {
			t.Fatalf("shanten(%v) = %d, want %d", &c, got, want)
		}
	}
}
