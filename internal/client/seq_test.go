package client_test

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
)

func TestCheckSeq(t *testing.T) {
	for _, c := range []struct {
		prev, seq uint64
		want      client.SeqFault
	}{
		{0, 1, client.SeqOK},
		{5, 6, client.SeqOK},
		{5, 9, client.SeqGap},
		{0, 3, client.SeqGap},
		{5, 5, client.SeqRepeat},
		{5, 4, client.SeqBack},
	} {
		if got := client.CheckSeq(c.prev, c.seq); got != c.want {
			t.Errorf("CheckSeq(%d, %d) = %v, want %v", c.prev, c.seq, got, c.want)
		}
	}
}

// scripted is a server whose seat stream sends a fixed list of sequence
// numbers (a snapshot first when after_seq is 0), then ends.
type scripted struct {
	pb.UnimplementedTableServiceServer
	snap uint64
	seqs []uint64
}

func (s *scripted) StreamEvents(req *pb.StreamEventsRequest, st pb.TableService_StreamEventsServer) error {
	if req.GetAfterSeq() == 0 {
		v := &pb.View{Phase: pb.Phase_PHASE_BETWEEN_ROUNDS, RoundWind: pb.Wind_WIND_EAST, Number: 1, Scores: []int32{25000, 25000, 25000, 25000}}
		for range 4 {
			v.Seats = append(v.Seats, &pb.SeatView{Score: 25000})
		}
		if err := st.Send(&pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Snapshot{Snapshot: &pb.Snapshot{Seq: s.snap, View: v}}}); err != nil {
			return err
		}
	}
	for i, seq := range s.seqs {
		ev := &pb.Event{Seq: seq, Time: timestamppb.Now(), Body: &pb.Event_SeatNotice{SeatNotice: &pb.SeatNotice{Kind: pb.SeatNotice_KIND_JOINED}}}
		if i == len(s.seqs)-1 {
			ev.Body = &pb.Event_GameEnded{GameEnded: &pb.GameEnded{Scores: []int32{25000, 25000, 25000, 25000}, Ranks: []int32{1, 2, 3, 4}}}
		}
		if err := st.Send(&pb.StreamEventsResponse{Item: &pb.StreamEventsResponse_Event{Event: ev}}); err != nil {
			return err
		}
	}
	return nil
}

// TestSessionCountsSequenceFaults runs a session against a server that
// repeats an event, goes back and skips: repeats and steps back are
// counted and dropped, a gap is counted and the event applied.
func TestSessionCountsSequenceFaults(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	pb.RegisterTableServiceServer(g, &scripted{snap: 5, seqs: []uint64{6, 6, 4, 7, 10, 11}})
	go g.Serve(lis)
	defer g.Stop()
	c := dial(t, lis.Addr().String())
	{
		var faults []error
		s := c.Follow(client.Seat{TableID: "t", Token: "x"}, client.Options{OnFault: func(err error) { faults = append(faults, err) }})
		var got []uint64
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		for {
			u, err := s.Next(ctx)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if !u.Snapshot {
				got = append(got, u.Event.Seq)
			}
		}
		cancel()
		want := []uint64{6, 7, 10, 11}
		if len(got) != len(want) || got[0] != 6 || got[1] != 7 || got[2] != 10 || got[3] != 11 {
			t.Errorf("delivered %v, want %v", got, want)
		}
		// 6 again (repeat), 4 (back), 10 after 7 (gap).
		const wantFaults = 3
		if n := s.Stats().Faults; n != wantFaults || len(faults) != n {
			t.Errorf("%d faults (%v), want %d", n, faults, wantFaults)
		}
		var se *client.SeqError
		if !errors.As(faults[0], &se) || se.Fault != client.SeqRepeat {
			t.Errorf("first fault %v, want a repeat", faults[0])
		}
	}
}
