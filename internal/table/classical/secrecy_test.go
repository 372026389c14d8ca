package classical

import (
	"testing"
)

// TestSecrecy plays games and checks that every event carrying a seat's
// concealed tiles or offers goes to that seat alone, and that a public
// draw names no tile.
func TestSecrecy(t *testing.T) {
	rules := Default
	rules.Rounds = 1
	tb, _ := New(Config{Rules: rules})
	hands := 0
	for tb.Phase() != GameOver {
		var a Action
		if tb.Phase() == BetweenHands {
			a = Action{Type: Deal, Wall: seedWall(99, hands)}
			hands++
		} else {
			for s := range Seat(NumSeats) {
				if tb.Waiting(s) {
					a, _ = tb.Default(s)
					break
				}
			}
		}
		evs, err := tb.Step(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			switch b := e.Body.(type) {
			case Dealt:
				if e.To != Only(b.Seat) {
					t.Fatalf("%v: dealt hand sent to %+v", e, e.To)
				}
			case ClaimOffer:
				if e.To != Only(b.Seat) {
					t.Fatalf("%v: offer sent to %+v", e, e.To)
				}
			case Drew:
				if b.Known != e.To.Private || (b.Known && e.To != Only(b.Seat)) || (!b.Known && b.Tile != 0) {
					t.Fatalf("%v: draw to %+v", e, e.To)
				}
			default:
				if e.To.Private {
					t.Fatalf("%v: a public event made private", e)
				}
			}
		}
		for s := range Seat(NumSeats) {
			v := tb.View(s)
			if tb.Phase() == Turn || tb.Phase() == ClaimWindow {
				if got, want := len(v.Tiles)+btoi(v.HasDrawn), len(tb.r.seats[s].hand); got != want {
					t.Fatalf("seat %d sees %d of its %d tiles", s, got, want)
				}
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
