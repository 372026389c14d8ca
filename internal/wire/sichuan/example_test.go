package sichuan_test

import (
	"fmt"

	sc "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/internal/tile"
	wsc "github.com/mahjong-authority/authority/internal/wire/sichuan"
)

func ExampleActionToPB() {
	void := sc.Action{Seat: 2, Type: sc.Void, Suit: tile.Pin}
	w := wsc.ActionToPB(void)
	fmt.Println(w.GetType(), w.GetSuit())
	back, err := wsc.ActionFromPB(w, 2)
	fmt.Println(back == void, err)
	// Output:
	// ACTION_TYPE_SICHUAN_VOID SICHUAN_SUIT_PIN
	// true <nil>
}
