package riichi

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/mahjong-authority/authority/internal/ruleset/mahjong/mahjongtest"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wall"
)

// randomWall fills every field of a wall.Wall with random bytes, and fails
// on a field it does not know how to fill: a field added to wall.Wall must
// be added to the codec too, or recovered deals would lose it.
func randomWall(t *testing.T, r *rand.Rand) *wall.Wall {
	t.Helper()
	w := &wall.Wall{}
	v := reflect.ValueOf(w).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Array || f.Type().Elem().Kind() != reflect.Uint8 {
			t.Fatalf("wall.Wall.%s is a %v: teach ActionCodec about it", v.Type().Field(i).Name, f.Type())
		}
		for j := range f.Len() {
			f.Index(j).SetUint(uint64(r.IntN(256)))
		}
	}
	return w
}

func TestActionCodec(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	mahjongtest.CheckCodec(t, ActionCodec{}, []table.Action{
		{Seat: 2, Type: table.Discard, Tile: tile.RedM5, Tsumogiri: true},
		{Seat: 1, Type: table.Chi, Tiles: [2]tile.Tile{tile.Plain(tile.S4), tile.RedS5}},
		{Type: table.Deal, Wall: randomWall(t, r)},
		{Seat: 255, Type: 255, Tile: 255, Tiles: [2]tile.Tile{255, 0}},
	}, [][]byte{nil, {1, 2, 3}, {0, 2, 0, 0, 0, 4}, {0, 2, 0, 0, 0, 0, 9}})
}
