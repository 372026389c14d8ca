package mahjong_test

import (
	"fmt"

	"github.com/mahjong-authority/authority/internal/ruleset/mahjong"
	"github.com/mahjong-authority/authority/internal/tile"
)

// A rule set's codec writes an action's head, its flags last, and for a
// deal the wall; Split takes them apart again and checks the frame.
func ExampleFrame_Split() {
	const flagWall = 1
	frame := mahjong.Frame{Size: 2, Flags: flagWall, Wall: flagWall, WallSize: 3 + 64}
	seed, commitment := [32]byte{1}, [32]byte{2}
	deal := mahjong.AppendWall([]byte{0, flagWall}, []tile.Tile{4, 5, 6}, &seed, &commitment)

	head, wall, err := frame.Split(deal)
	fmt.Println(len(head), len(wall), err)
	var tiles [3]tile.Tile
	mahjong.ReadWall(wall, tiles[:], &seed, &commitment)
	fmt.Println(tiles)
	_, _, err = frame.Split(deal[:10])
	fmt.Println(err)
	// Output:
	// 2 67 <nil>
	// [5m 6m 7m]
	// wall of 8 bytes, want 67
}
