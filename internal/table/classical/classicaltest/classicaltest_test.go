package classicaltest_test

import (
	"reflect"
	"testing"

	ct "github.com/mahjong-authority/authority/internal/table/classical"
	"github.com/mahjong-authority/authority/internal/table/classical/classicaltest"
)

// TestNext: a game starts with the deal of hand 0, a seed deals the same
// wall every time and another seed another; then the bot is asked for
// the waited-for seat, with that seat's view.
func TestNext(t *testing.T) {
	tb, err := ct.New(ct.Config{Rules: ct.Default})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := classicaltest.Deal(7, 0), classicaltest.Deal(7, 0); !reflect.DeepEqual(a, b) {
		t.Fatalf("Deal(7, 0) twice: %v, %v", a, b)
	}
	if a, b := classicaltest.Deal(7, 0), classicaltest.Deal(7, 1); reflect.DeepEqual(a.Wall, b.Wall) {
		t.Fatal("Deal(7, 0) and Deal(7, 1) deal the same wall")
	}
	hands := 0
	var v ct.View
	never := func(*ct.View) (ct.Action, bool) { t.Fatal("bot asked between hands"); return ct.Action{}, false }
	a, ok := classicaltest.Next(tb, 7, &hands, &v, never)
	if !ok || a.Type != ct.Deal || hands != 1 || !reflect.DeepEqual(a, classicaltest.Deal(7, 0)) {
		t.Fatalf("Next between hands = %v, %v, hands %d; want Deal(7, 0), hands 1", a, ok, hands)
	}
	if _, err := tb.Step(a); err != nil {
		t.Fatal(err)
	}
	var asked *ct.View
	first := func(v *ct.View) (ct.Action, bool) { asked = v; return v.Legal[0], true }
	a, ok = classicaltest.Next(tb, 7, &hands, &v, first)
	if !ok || asked != &v || !tb.Waiting(v.Seat) || a != v.Legal[0] || hands != 1 {
		t.Fatalf("Next in a hand = %v, %v (asked %p, view of seat %d); want the waited-for seat's bot answer", a, ok, asked, v.Seat)
	}
}
