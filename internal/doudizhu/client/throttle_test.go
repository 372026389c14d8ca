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
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	"github.com/mahjong-authority/authority/internal/client/retry"
	"github.com/mahjong-authority/authority/internal/doudizhu/client"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
)

// pacing refuses the first refusals calls of each kind it serves with
// RESOURCE_EXHAUSTED / RATE_LIMITED and a RetryInfo of delay, and records
// when each call came; the streams it opens after that are refused for
// good (UNIMPLEMENTED), which ends Next.
type pacing struct {
	pb.UnimplementedDoudizhuServiceServer
	delay    time.Duration
	refusals int

	mu      sync.Mutex
	acts    []*pb.ActRequest
	actAt   []time.Time
	joins   int
	streams []time.Time
}

func (p *pacing) limited() error {
	st := status.New(codes.ResourceExhausted, "too many requests")
	st, _ = st.WithDetails(
		&errdetails.ErrorInfo{Reason: "ERROR_REASON_RATE_LIMITED", Domain: "authority.mahjong"},
		&errdetails.RetryInfo{RetryDelay: durationpb.New(p.delay)})
	return st.Err()
}

func (p *pacing) Act(_ context.Context, r *pb.ActRequest) (*pb.ActResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.acts, p.actAt = append(p.acts, r), append(p.actAt, time.Now())
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

func (p *pacing) StreamEvents(*pb.StreamEventsRequest, grpc.ServerStreamingServer[pb.StreamEventsResponse]) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.streams = append(p.streams, time.Now())
	if len(p.streams) <= p.refusals {
		return p.limited()
	}
	return status.Error(codes.Unimplemented, "no streams here")
}

// checkGaps fails unless each call came exactly delay after the one
// before: not sooner, and not after the hour of the backoff.
func checkGaps(t *testing.T, what string, at []time.Time, delay time.Duration) {
	t.Helper()
	for i := 1; i < len(at); i++ {
		if gap := at[i].Sub(at[i-1]); gap < delay || gap > delay+time.Second {
			t.Errorf("%s %d came %v after the one before, want %v", what, i, gap, delay)
		}
	}
}

// TestActWaitsRetryDelay has the server rate-limit an action, a join and
// a stream's opening twice each: the session sends the same request (same
// id, same last seq) again after exactly the delay the server gave, and
// counts it throttled, not retried; the join and the stream go again the
// same way.
func TestActWaitsRetryDelay(t *testing.T) {
	const delay = 80 * time.Millisecond
	p := &pacing{delay: delay, refusals: 2}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	pb.RegisterDoudizhuServiceServer(g, p)
	go g.Serve(lis)
	defer g.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := client.New(conn)
	c.Backoff = retry.Backoff{Initial: time.Hour, Max: time.Hour}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	seat, err := c.JoinTable(ctx, "t", "me")
	if err != nil || seat.Token != "tok" {
		t.Fatalf("JoinTable = %+v, %v; want the seat after the limit", seat, err)
	}
	s := c.Follow(seat, nil)
	seq, err := s.Act(ctx, table.Action{Seat: 1, Type: table.Pass})
	if err != nil || seq != 7 {
		t.Fatalf("Act = %d, %v; want 7", seq, err)
	}
	if len(p.acts) != 3 {
		t.Fatalf("%d attempts, want 3", len(p.acts))
	}
	for i, r := range p.acts[1:] {
		if r.GetRequestId() != p.acts[0].GetRequestId() || r.GetLastSeq() != p.acts[0].GetLastSeq() {
			t.Errorf("attempt %d: request %q at %d, want the first's %q at %d", i+1,
				r.GetRequestId(), r.GetLastSeq(), p.acts[0].GetRequestId(), p.acts[0].GetLastSeq())
		}
	}
	checkGaps(t, "act", p.actAt, delay)
	if _, err := s.Next(ctx); status.Code(err) != codes.Unimplemented {
		t.Fatalf("Next = %v, want the stream's refusal after the limit", err)
	}
	if len(p.streams) != 3 {
		t.Fatalf("%d stream attempts, want 3", len(p.streams))
	}
	checkGaps(t, "stream", p.streams, delay)
	if st := s.Stats(); st.Throttled != 4 || st.ActRetries != 0 || st.StreamRetries != 0 {
		t.Errorf("stats %+v, want 4 throttled (2 acts, 2 streams) and no retry", st)
	}
	if n := c.Throttled(); n != 6 { // and two joins
		t.Errorf("client throttled %d calls, want 6", n)
	}
}
