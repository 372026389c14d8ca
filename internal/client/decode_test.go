package client_test

import (
	"errors"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/tile"
)

func TestActionRoundTrip(t *testing.T) {
	m := func(s string) tile.Tile { return tile.MustParse(s)[0] }
	for _, a := range []table.Action{
		{Seat: 2, Type: table.Discard, Tile: m("0p")},
		{Seat: 2, Type: table.Discard, Tile: m("7z"), Tsumogiri: true},
		{Seat: 2, Type: table.Riichi, Tile: m("9s"), Tsumogiri: true},
		{Seat: 2, Type: table.Chi, Tiles: [2]tile.Tile{m("4m"), m("0m")}},
		{Seat: 2, Type: table.Pon, Tiles: [2]tile.Tile{m("1z"), m("1z")}},
		{Seat: 2, Type: table.ClosedKan, Tile: m("3p")},
		{Seat: 2, Type: table.AddedKan, Tile: m("5s")},
		{Seat: 2, Type: table.OpenKan},
		{Seat: 2, Type: table.Ron},
		{Seat: 2, Type: table.Tsumo},
		{Seat: 2, Type: table.Pass},
		{Seat: 2, Type: table.NineTerminals},
	} {
		w := client.ActionToPB(a)
		got, err := client.ActionFromPB(w, 2)
		if err != nil || got != a {
			t.Errorf("ActionFromPB(ActionToPB(%v)) = %v, %v (wire %v); want it back", a, got, err, w)
		}
	}
}

func TestDecodeRefusesMalformed(t *testing.T) {
	scores := []int32{1, 2, 3, 4}
	for name, e := range map[string]*pb.Event{
		"no body":          {Seq: 1},
		"bad tile":         {Seq: 1, Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 1, Tile: "0z"}}},
		"flower":           {Seq: 1, Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 1, Tile: "8z"}}},
		"seat":             {Seq: 1, Body: &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 4, Tile: "1z"}}},
		"three scores":     {Seq: 1, Body: &pb.Event_RiichiAccepted{RiichiAccepted: &pb.RiichiAccepted{Scores: scores[:3]}}},
		"wind":             {Seq: 1, Body: &pb.Event_RoundStarted{RoundStarted: &pb.RoundStarted{Scores: scores, Dora: "1m"}}},
		"meld size":        {Seq: 1, Body: &pb.Event_Called{Called: &pb.Called{Scores: scores, Meld: &pb.Meld{Type: pb.MeldType_MELD_TYPE_PON, Tiles: "11z", CalledTile: "1z"}}}},
		"meld type":        {Seq: 1, Body: &pb.Event_Called{Called: &pb.Called{Scores: scores, Meld: &pb.Meld{Tiles: "111z", CalledTile: "1z"}}}},
		"chi tiles":        {Seq: 1, Body: &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Options: []*pb.Action{{Type: pb.ActionType_ACTION_TYPE_CHI, Tiles: "4m"}}}}},
		"action type":      {Seq: 1, Body: &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Options: []*pb.Action{{}}}}},
		"yaku":             {Seq: 1, Body: &pb.Event_Won{Won: &pb.Won{WinTile: "1m", Limit: "none", Deltas: scores, Yaku: []*pb.Yaku{{Name: "luck"}}}}},
		"limit":            {Seq: 1, Body: &pb.Event_Won{Won: &pb.Won{WinTile: "1m", Limit: "lots", Deltas: scores}}},
		"round end kind":   {Seq: 1, Body: &pb.Event_RoundEnded{RoundEnded: &pb.RoundEnded{Kind: 99, Deltas: scores, Scores: scores}}},
		"round end hands":  {Seq: 1, Body: &pb.Event_RoundEnded{RoundEnded: &pb.RoundEnded{Kind: 1, Deltas: scores, Scores: scores, Tenpai: make([]bool, 4)}}},
		"game ended ranks": {Seq: 1, Body: &pb.Event_GameEnded{GameEnded: &pb.GameEnded{Scores: scores}}},
	} {
		if _, err := client.EventFromPB(e); !errors.Is(err, client.ErrDecode) {
			t.Errorf("%s: EventFromPB(%v) = %v, want ErrDecode", name, e, err)
		}
	}
	if _, err := client.ViewFromPB(&pb.View{Phase: pb.Phase_PHASE_TURN, RoundWind: pb.Wind_WIND_EAST, Scores: scores}, 1); !errors.Is(err, client.ErrDecode) {
		t.Errorf("ViewFromPB of a view without seats = %v, want ErrDecode", err)
	}
}
