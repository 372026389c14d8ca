package servertest_test

import (
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/servertest"
)

func TestTake(t *testing.T) {
	ev := func(seq uint64, e *pb.Event) *pb.StreamEventsResponse {
		e.Seq = seq
		return &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: e}}
	}
	ron := &pb.Action{Type: pb.ActionType_ACTION_TYPE_RON}
	// One seat's stream, in order: what it acts on and what it keeps.
	steps := []struct {
		name      string
		r         *pb.StreamEventsResponse
		want      *pb.Action
		wantSeq   uint64
		wantDrawn string
	}{
		{name: "snapshot with a drawn tile", r: &pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Snapshot{Snapshot: &pb.Snapshot{Seq: 4, View: &pb.View{Drawn: "3p"}}}}, wantSeq: 4, wantDrawn: "3p"},
		{name: "own turn offer", r: ev(5, &pb.Event{Body: &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Seat: 2}}}), want: &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "3p"}, wantSeq: 5, wantDrawn: "3p"},
		{name: "another seat's draw", r: ev(6, &pb.Event{Body: &pb.Event_Drew{Drew: &pb.Drew{Seat: 1, Tile: ""}}}), wantSeq: 6, wantDrawn: "3p"},
		{name: "own draw", r: ev(7, &pb.Event{Body: &pb.Event_Drew{Drew: &pb.Drew{Seat: 2, Tile: "7z"}}}), wantSeq: 7, wantDrawn: "7z"},
		{name: "another seat's turn offer", r: ev(8, &pb.Event{Body: &pb.Event_TurnOffer{TurnOffer: &pb.TurnOffer{Seat: 1}}}), wantSeq: 8, wantDrawn: "7z"},
		{name: "claim offer without ron", r: ev(9, &pb.Event{Body: &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: 2, Options: []*pb.Action{{Type: pb.ActionType_ACTION_TYPE_PON}}}}}), want: &pb.Action{Type: pb.ActionType_ACTION_TYPE_PASS}, wantSeq: 9, wantDrawn: "7z"},
		{name: "claim offer with ron", r: ev(10, &pb.Event{Body: &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: 2, Options: []*pb.Action{{Type: pb.ActionType_ACTION_TYPE_PON}, ron}}}}), want: ron, wantSeq: 10, wantDrawn: "7z"},
		{name: "another seat's claim offer", r: ev(11, &pb.Event{Body: &pb.Event_ClaimOffer{ClaimOffer: &pb.ClaimOffer{Seat: 3, Options: []*pb.Action{ron}}}}), wantSeq: 11, wantDrawn: "7z"},
	}
	drawn := ""
	for _, st := range steps {
		got, seq := servertest.Take(2, &drawn, st.r)
		if !proto.Equal(got, st.want) || seq != st.wantSeq || drawn != st.wantDrawn {
			t.Errorf("%s: Take = %v, %d (drawn %q), want %v, %d (drawn %q)", st.name, got, seq, drawn, st.want, st.wantSeq, st.wantDrawn)
		}
	}
}
