package sichuan

import (
	"encoding/binary"
	"testing"

	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
)

// TestPlay plays whole matches of four bots under every preset: each ends,
// the same seeds give the same scores, and somebody wins now and then.
func TestPlay(t *testing.T) {
	for _, rules := range []sc.Rules{sc.Default, sc.BloodyRiver} {
		var scores [2][sc.NumSeats]int
		for run := range 2 {
			tb, err := sc.New(sc.Config{Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			hands := 0
			next := func() sc.Wall {
				var seed [32]byte
				binary.LittleEndian.PutUint64(seed[:], uint64(hands))
				hands++
				return sc.NewWall(seed)
			}
			var bots [sc.NumSeats]Efficient
			if _, err := Play(tb, &bots, next, 100_000); err != nil {
				t.Fatalf("%s: %v", rules.Name, err)
			}
			scores[run] = tb.Scores()
		}
		if scores[0] != scores[1] {
			t.Errorf("%s: two runs ended %v and %v", rules.Name, scores[0], scores[1])
		}
		if scores[0] == [sc.NumSeats]int{} {
			t.Errorf("%s: a whole match moved no unit", rules.Name)
		}
	}
}

// TestActLegal: whatever the bot chooses is among the legal actions, and
// Decide chooses as Act does.
func TestActLegal(t *testing.T) {
	for _, rules := range []sc.Rules{sc.Default, sc.BloodyRiver} {
		actLegal(t, rules)
	}
}

func actLegal(t *testing.T, rules sc.Rules) {
	tb, _ := sc.New(sc.Config{Rules: rules})
	hands := 0
	var v sc.View
	for steps := 0; tb.Phase() != sc.MatchOver && steps < 50_000; steps++ {
		if tb.Phase() == sc.BetweenHands {
			w := sc.NewWall([32]byte{byte(hands), 7})
			hands++
			if _, err := tb.Step(sc.Action{Type: sc.Deal, Wall: &w}); err != nil {
				t.Fatal(err)
			}
			continue
		}
		for s := range sc.Seat(sc.NumSeats) {
			if !tb.Waiting(s) {
				continue
			}
			tb.ViewInto(s, &v)
			a, ok := Efficient{}.Act(&v)
			found := false
			for _, l := range v.Legal {
				found = found || l == a
			}
			if !ok || !found {
				t.Fatalf("seat %d chose %v (ok %v), not among %v", s, a, ok, v.Legal)
			}
			if d, ok := (Efficient{}).Decide(tb, s); !ok || d != a {
				t.Fatalf("seat %d: Decide = %v, %v; Act = %v", s, d, ok, a)
			}
			if _, err := tb.Step(a); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	if tb.Phase() != sc.MatchOver {
		t.Fatal("the match did not end")
	}
}

// BenchmarkBotDecide decides every offer of a whole match from its view,
// as the bots of `tablectl bots --rules sichuan` do: the cost of a
// decision.
func BenchmarkBotDecide(b *testing.B) {
	tb, _ := sc.New(sc.Config{Rules: sc.Default})
	hands := 0
	var views []sc.View
	for steps := 0; tb.Phase() != sc.MatchOver && steps < 50_000; steps++ {
		if tb.Phase() == sc.BetweenHands {
			w := sc.NewWall([32]byte{byte(hands), 7})
			hands++
			if _, err := tb.Step(sc.Action{Type: sc.Deal, Wall: &w}); err != nil {
				b.Fatal(err)
			}
			continue
		}
		for s := range sc.Seat(sc.NumSeats) {
			if !tb.Waiting(s) {
				continue
			}
			v := tb.View(s)
			views = append(views, v)
			a, _ := Efficient{}.Act(&v)
			if _, err := tb.Step(a); err != nil {
				b.Fatal(err)
			}
			break
		}
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Efficient{}.Act(&views[i%len(views)])
	}
}
