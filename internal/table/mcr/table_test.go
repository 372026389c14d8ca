package mcr

import (
	"errors"
	"testing"

	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

func TestTablePoints(t *testing.T) {
	for _, c := range []struct {
		scores [NumSeats]int
		want   [NumSeats]float64
	}{
		{[NumSeats]int{30, 10, -10, -30}, [NumSeats]float64{4, 2, 1, 0}},
		{[NumSeats]int{-30, -10, 10, 30}, [NumSeats]float64{0, 1, 2, 4}},
		{[NumSeats]int{20, 20, -20, -20}, [NumSeats]float64{3, 3, 0.5, 0.5}},
		{[NumSeats]int{0, 0, 0, 0}, [NumSeats]float64{1.75, 1.75, 1.75, 1.75}},
		{[NumSeats]int{30, -10, -10, -10}, [NumSeats]float64{4, 1, 1, 1}},
		{[NumSeats]int{10, 10, 10, -30}, [NumSeats]float64{7.0 / 3, 7.0 / 3, 7.0 / 3, 0}},
		{[NumSeats]int{5, 40, 5, -50}, [NumSeats]float64{1.5, 4, 1.5, 0}},
	} {
		if got := TablePoints(c.scores); got != c.want {
			t.Errorf("TablePoints(%v) = %v, want %v", c.scores, got, c.want)
		}
	}
}

// TestWinds checks the 16 hands' winds: every hand gives the four winds to
// the four seats, every seat deals four times, once in each round, and the
// seats change only between rounds.
func TestWinds(t *testing.T) {
	var deals [NumSeats]int
	for i := range MaxHands {
		round, winds := Winds(i)
		if round != tile.Wind(i/4) {
			t.Errorf("hand %d: round %v", i, round)
		}
		var seen [NumSeats]bool
		for s, w := range winds {
			seen[w] = true
			if w == tile.WindEast {
				deals[s]++
			}
			if i%4 > 0 {
				_, prev := Winds(i - 1)
				if want := (prev[s] + 3) % 4; w != want {
					t.Errorf("hand %d: seat %d has %v after %v", i, s, w, prev[s])
				}
			}
		}
		if seen != [NumSeats]bool{true, true, true, true} {
			t.Errorf("hand %d: winds %v", i, winds)
		}
	}
	if deals != [NumSeats]int{4, 4, 4, 4} {
		t.Errorf("deals per seat %v, want 4 each", deals)
	}
}

func TestNewAndDealRefused(t *testing.T) {
	for _, n := range []int{0, -1, 17} {
		if _, err := New(Config{Rules: Rules{Name: "x", Hands: n}}); !errors.Is(err, ErrConfig) {
			t.Errorf("New with %d hands = %v, want ErrConfig", n, err)
		}
	}
	tb, err := New(Config{Rules: OneHand})
	if err != nil {
		t.Fatal(err)
	}
	w := wall.New144([32]byte{1})
	j := 1
	for w.Tiles[j] == w.Tiles[0] {
		j++
	}
	w.Tiles[0], w.Tiles[j] = w.Tiles[j], w.Tiles[0]
	if _, err := tb.Step(Action{Type: Deal, Wall: &w}); !errors.Is(err, ErrBadWall) {
		t.Errorf("a wall that is not its seed's shuffle: %v, want ErrBadWall", err)
	}
	if _, err := tb.Step(Action{Type: Deal}); !errors.Is(err, ErrBadAction) {
		t.Errorf("no wall: %v, want ErrBadAction", err)
	}
	if _, err := tb.Step(Action{Type: Discard}); !errors.Is(err, ErrPhase) {
		t.Errorf("a discard before the deal: %v, want ErrPhase", err)
	}
	var bad wall.Wall144
	if _, err := tb.Step(Action{Type: Deal, Wall: &bad}); !errors.Is(err, ErrBadWall) {
		t.Errorf("a wall of 144 1m: %v, want ErrBadWall", err)
	}
	if tb.Phase() != BetweenHands || tb.Hands() != 0 {
		t.Errorf("refused deals moved the table: %v, %d hands", tb.Phase(), tb.Hands())
	}
}
