package record

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mahjong-authority/authority/internal/doudizhu/card"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

func TestMoves(t *testing.T) {
	for _, a := range []table.Action{
		{Seat: 0, Type: table.Bid, Bid: 3}, {Seat: 1, Type: table.Pass}, {Seat: 2, Type: table.Call},
		{Seat: 0, Type: table.Rob}, {Seat: 2, Type: table.Play, Cards: card.MustParse("33344XD")},
	} {
		back, err := ParseMove(FormatMove(a))
		if err != nil || back != a {
			t.Errorf("%v: %q reads back as %v, %v", a, FormatMove(a), back, err)
		}
	}
	for _, bad := range []string{"", "0", "3 pass", "-1 pass", "0 bid", "0 bid x", "0 play 3Z", "0 play", "0 fold", "0 pass 1"} {
		if _, err := ParseMove(bad); err == nil {
			t.Errorf("ParseMove(%q) accepted", bad)
		}
	}
}

func TestVerifyRefusesOtherRecords(t *testing.T) {
	for _, r := range []Record{{}, {Format: Format, Game: "riichi"}, {Format: Format, Game: Game, Rules: Rules{Bidding: "auction", Deals: 1}}} {
		if _, err := Verify(&r); !errors.Is(err, ErrVerify) {
			t.Errorf("Verify(%+v) = %v", r, err)
		}
	}
}

func ExampleFormatMove() {
	fmt.Println(FormatMove(table.Action{Seat: 2, Type: table.Play, Cards: card.MustParse("43534")}))
	a, _ := ParseMove("1 bid 2")
	fmt.Println(a.Seat, a.Type, a.Bid)
	// Output:
	// 2 play 33445
	// 1 bid 2
}
