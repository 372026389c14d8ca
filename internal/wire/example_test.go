package wire_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wire"
)

func ExampleActionToPB() {
	chi := table.Action{Seat: 1, Type: table.Chi, Tiles: [2]tile.Tile{tile.RedM5, tile.Plain(tile.M6)}}
	w := wire.ActionToPB(chi)
	fmt.Println(w.GetType(), w.GetTiles())
	back, err := wire.ActionFromPB(w, 1)
	fmt.Println(back == chi, err)
	// Output:
	// ACTION_TYPE_CHI 06m
	// true <nil>
}
