package classical_test

import (
	"fmt"

	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/wall"
)

// A table deals a hand from a wall and answers what the seat to act may
// do; the engine refuses a fishing announcement the judge does not allow.
func Example() {
	tb, err := ct.New(ct.Config{Rules: ct.Default})
	if err != nil {
		panic(err)
	}
	w := wall.New144([32]byte{1})
	if _, err := tb.Step(ct.Action{Type: ct.Deal, Wall: &w}); err != nil {
		panic(err)
	}
	east, _ := tb.ToAct()
	fmt.Println(tb.Phase(), "seat", east, "to act, round", tb.Round())
	_, err = tb.Step(ct.Action{Seat: east, Type: ct.Fish})
	fmt.Println(err != nil)
	// Output:
	// turn seat 0 to act, round E
	// true
}
