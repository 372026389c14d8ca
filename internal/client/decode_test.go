package client_test

import (
	"errors"
	"testing"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
)

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
		"called tile":      {Seq: 1, Body: &pb.Event_Called{Called: &pb.Called{Scores: scores, Meld: &pb.Meld{Type: pb.MeldType_MELD_TYPE_PON, Tiles: "111z", CalledTile: "2z"}}}},
		"added tile":       {Seq: 1, Body: &pb.Event_Called{Called: &pb.Called{Scores: scores, Meld: &pb.Meld{Type: pb.MeldType_MELD_TYPE_ADDED_KAN, Tiles: "5555m", CalledTile: "5m", AddedTile: "0m"}}}},
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
