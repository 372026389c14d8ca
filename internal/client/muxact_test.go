package client

import (
	"bytes"
	"testing"

	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// TestMuxActMarshal: a muxAct is written exactly as proto writes its
// MultiplexRequest, empty fields and all.
func TestMuxActMarshal(t *testing.T) {
	discard := &pb.Action{Type: pb.ActionType_ACTION_TYPE_DISCARD, Tile: "5m"}
	long := string(bytes.Repeat([]byte("x"), 300)) // lengths of two bytes
	for _, tc := range []struct {
		name string
		a    muxAct
	}{
		{"whole", muxAct{call: 7, req: &pb.ActRequest{TableId: "t-1", SeatToken: "tok", LastSeq: 42, RequestId: "id-1", Action: discard}}},
		{"zeros", muxAct{req: &pb.ActRequest{}}},
		{"empty action", muxAct{call: 1, req: &pb.ActRequest{TableId: "t", Action: &pb.Action{}}}},
		{"no request", muxAct{call: 3}},
		{"large", muxAct{call: 1 << 40, req: &pb.ActRequest{TableId: long, SeatToken: long, LastSeq: 1 << 50, RequestId: long, Action: discard}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.a.marshal()
			if err != nil {
				t.Fatal(err)
			}
			want, err := proto.MarshalOptions{Deterministic: true}.Marshal(&pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Act{Act: &pb.MultiplexAct{Call: tc.a.call, Request: tc.a.req}}})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("muxAct %v\n got %x\nwant %x", tc.name, got, want)
			}
		})
	}
}
