package encoded_test

import (
	"testing"
	"time"

	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/encoded"
)

// BenchmarkEventToViewers is one public event (a discard) made into the
// message of each of 4 seats and 8 spectators and handed to gRPC's codec:
// per viewer, as the server did (a message built and marshalled for each
// stream), and shared (marshalled once, each viewer's seq spliced in).
// One op is one event to all 12 viewers.
func BenchmarkEventToViewers(b *testing.B) {
	const viewers = 12
	codec := encoding.GetCodecV2("proto")
	at := time.Unix(1_700_000_000, 5)
	body := func() *pb.Event_Discarded {
		return &pb.Event_Discarded{Discarded: &pb.Discarded{Seat: 1, Tile: "5m", Tsumogiri: true}}
	}
	b.Run("per-viewer", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			for v := range viewers {
				ev := &pb.Event{Seq: uint64(100 + v), Time: timestamppb.New(at), Body: body()}
				data, err := codec.Marshal(&pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: ev}})
				if err != nil {
					b.Fatal(err)
				}
				data.Free()
			}
		}
	})
	b.Run("shared", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			shared, err := proto.Marshal(&pb.Event{Time: timestamppb.New(at), Body: body()})
			if err != nil {
				b.Fatal(err)
			}
			for v := range viewers {
				data, err := codec.Marshal(encoded.Numbered(newResp, 2, uint64(100+v), shared))
				if err != nil {
					b.Fatal(err)
				}
				data.Free()
			}
		}
	})
}
