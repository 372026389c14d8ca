package riichi

import (
	"errors"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
	"github.com/mahjong-authority/authority/internal/wire"
)

func TestActionFromPB(t *testing.T) {
	for _, tc := range []struct {
		in   *pb.Action
		want table.Action
		err  error
	}{
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "0m"}, table.Action{Seat: 2, Type: table.Discard, Tile: tile.RedM5}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "4s0s"}, table.Action{Seat: 2, Type: table.Chi, Tiles: [2]tile.Tile{tile.Plain(tile.S4), tile.RedS5}}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PON, Tiles: "77z"}, table.Action{Seat: 2, Type: table.Pon, Tiles: [2]tile.Tile{tile.Plain(tile.Chun), tile.Plain(tile.Chun)}}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_RON}, table.Action{Seat: 2, Type: table.Ron}, nil},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD}, table.Action{}, ruleset.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "5m", Tiles: "5m"}, table.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_PON, Tiles: "777z"}, table.Action{}, ruleset.ErrBadTile},
		{&pb.Action{Type: pb.ActionType_ACTION_TYPE_TSUMO, Tile: "1m"}, table.Action{}, ruleset.ErrMalformed},
		{&pb.Action{Type: 99}, table.Action{}, ruleset.ErrMalformed},
		{nil, table.Action{}, ruleset.ErrMalformed},
	} {
		got, err := actionFromPB(tc.in, 2)
		if !errors.Is(err, tc.err) || got != tc.want {
			t.Errorf("actionFromPB(%v) = %+v, %v; want %+v, %v", tc.in, got, err, tc.want, tc.err)
		}
	}
}

// FuzzActionFromPB feeds arbitrary actions to the parser: it must never
// panic, and what it accepts must survive the trip back to the wire.
func FuzzActionFromPB(f *testing.F) {
	f.Add(int32(1), "0m", "")
	f.Add(int32(3), "", "34m")
	f.Add(int32(4), "", "0p5p")
	f.Add(int32(6), "1z", "")
	f.Add(int32(10), "", "")
	f.Add(int32(2), "9x", "1f")
	f.Fuzz(func(t *testing.T, typ int32, tl, tls string) {
		in := &pb.Action{Type: pb.ActionType(typ), Tile: tl, Tiles: tls}
		a, err := actionFromPB(in, 1)
		if err != nil {
			if a != (table.Action{}) {
				t.Fatalf("actionFromPB(%v) = %+v with error %v", in, a, err)
			}
			return
		}
		back, err := actionFromPB(wire.ActionToPB(a), 1)
		if err != nil || back != a {
			t.Fatalf("round trip of %+v via %v = %+v, %v", a, wire.ActionToPB(a), back, err)
		}
	})
}
