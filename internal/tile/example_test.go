package tile_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/tile"
)

func ExampleParse() {
	ts, err := tile.Parse("3m1m2m0p7z")
	if err != nil {
		panic(err)
	}
	fmt.Println(len(ts), tile.Format(ts), ts[3].Red())
	// Output: 5 123m0p7z true
}

func ExampleParse_error() {
	_, err := tile.Parse("123m8z")
	fmt.Println(err)
	// Output: tile: bad notation "123m8z": '8' at position 4: no tile 8z
}

func ExampleKindSet() {
	waits := tile.SetOf(tile.M1, tile.M4, tile.M7)
	fmt.Println(waits, waits.Len(), waits.Has(tile.M4))
	// Output: 147m 3 true
}
