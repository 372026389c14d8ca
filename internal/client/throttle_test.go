package client_test

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// pacing refuses the first refusals calls of each kind it serves with
// RATE_LIMITED and a RetryInfo of delay, and records when each Act came
// and with which request id.
type pacing struct {
	pb.UnimplementedTableServiceServer
	delay    time.Duration
	refusals int

	mu      sync.Mutex
	acts    []*pb.ActRequest
	at      []time.Time
	joins   int
	streams []time.Time
}

func (p *pacing) limited() error {
	st := status.New(codes.ResourceExhausted, "too many requests")
	st, _ = st.WithDetails(
		&errdetails.ErrorInfo{Reason: pb.ErrorReason_ERROR_REASON_RATE_LIMITED.String(), Domain: "authority.mahjong"},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(p.delay)})
	return st.Err()
}

func (p *pacing) Act(_ context.Context, r *pb.ActRequest) (*pb.ActResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.acts = append(p.acts, r)
	p.at = append(p.at, time.Now())
	if len(p.acts) <= p.refusals {
		return nil, p.limited()
	}
	return &pb.ActResponse{Seq: 7}, nil
}

func (p *pacing) JoinTable(context.Context, *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.joins++; p.joins <= p.refusals {
		return nil, p.limited()
	}
	return &pb.JoinTableResponse{Seat: 1, SeatToken: "tok"}, nil
}

// StreamEvents refuses the first refusals streams with the rate limit
// (which the client receives on its first Recv), and every later one for
// good (UNIMPLEMENTED).
func (p *pacing) StreamEvents(*pb.StreamEventsRequest, grpc.ServerStreamingServer[pb.StreamEventsResponse]) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.streams = append(p.streams, time.Now())
	if len(p.streams) <= p.refusals {
		return p.limited()
	}
	return status.Error(codes.Unimplemented, "no streams here")
}

// TestActWaitsRetryDelay has the server rate-limit an action twice: the
// session sends the same request (same id, same last seq) again after
// exactly the delay the server gave each time, counts it throttled and
// not retried, and returns the answer. A join refused by the limit, which
// never ran, is sent again too, and so is a stream refused by it.
func TestActWaitsRetryDelay(t *testing.T) {
	const delay = 80 * time.Millisecond
	p := &pacing{delay: delay, refusals: 2}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	pb.RegisterTableServiceServer(g, p)
	go g.Serve(lis)
	defer g.Stop()
	c := dial(t, lis.Addr().String())

	seat, err := c.JoinTable(ctxT(t), "t", "me", nil)
	if err != nil || seat.Token != "tok" {
		t.Fatalf("JoinTable = %+v, %v; want the seat after the limit", seat, err)
	}
	s := c.Follow(seat, client.Options{Backoff: client.Backoff{Initial: time.Hour, Max: time.Hour}})
	seq, err := s.Act(ctxT(t), table.Action{Seat: 1, Type: table.Pass})
	if err != nil || seq != 7 {
		t.Fatalf("Act = %d, %v; want 7", seq, err)
	}
	if len(p.acts) != 3 {
		t.Fatalf("%d attempts, want 3", len(p.acts))
	}
	for i := 1; i < len(p.acts); i++ {
		if p.acts[i].GetRequestId() != p.acts[0].GetRequestId() || p.acts[i].GetLastSeq() != p.acts[0].GetLastSeq() {
			t.Errorf("attempt %d: request %q at %d, want the first's %q at %d", i,
				p.acts[i].GetRequestId(), p.acts[i].GetLastSeq(), p.acts[0].GetRequestId(), p.acts[0].GetLastSeq())
		}
		// Exactly the delay: not less, and not the hour of the backoff.
		if gap := p.at[i].Sub(p.at[i-1]); gap < delay || gap > delay+time.Second {
			t.Errorf("attempt %d came %v after the one before, want %v", i, gap, delay)
		}
	}
	if _, err := s.Next(ctxT(t)); status.Code(err) != codes.Unimplemented || len(p.streams) != 3 {
		t.Fatalf("Next = %v after %d streams, want the refusal after 3", err, len(p.streams))
	}
	for i := 1; i < len(p.streams); i++ {
		if gap := p.streams[i].Sub(p.streams[i-1]); gap < delay || gap > delay+time.Second {
			t.Errorf("stream %d came %v after the one before, want %v", i, gap, delay)
		}
	}
	if st := s.Stats(); st.Throttled != 4 || st.ActRetries != 0 || st.StreamRetries != 0 {
		t.Errorf("stats %+v, want 4 throttled (2 actions, 2 streams) and no retry", st)
	}
	if n := c.Throttled(); n != 6 { // two joins, two actions, two streams
		t.Errorf("client throttled %d calls, want 6", n)
	}
}
