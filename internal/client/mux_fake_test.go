package client_test

import (
	"context"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/protoadapt"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/table"
)

// muxScript is a Multiplex server that answers from a script: the n-th
// action it receives (from 0, over all its streams) gets answers[n] - a
// status to answer with, or nil to break the whole stream with
// UNAVAILABLE instead - and anything past the script seq 7. Every follow
// ends at once with follows' status. With junk every message carries
// items for no follow and no call too. It records each action and the stream it came
// on.
type muxScript struct {
	pb.UnimplementedTableServiceServer
	answers []*status.Status
	follows *status.Status
	junk    bool // add items for nobody to every message

	mu      sync.Mutex
	acts    []*pb.ActRequest
	at      []time.Time
	streams []int // the stream of each action
	opened  int
}

// breakStream is a script's entry that breaks the stream.
var breakStream *status.Status

func (p *muxScript) Multiplex(st grpc.BidiStreamingServer[pb.MultiplexRequest, pb.MultiplexResponse]) error {
	p.mu.Lock()
	p.opened++
	stream := p.opened
	p.mu.Unlock()
	for {
		r, err := st.Recv()
		if err != nil {
			return err
		}
		var it *pb.MultiplexItem
		switch k := r.GetKind().(type) {
		case *pb.MultiplexRequest_Follow:
			it = &pb.MultiplexItem{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: k.Follow.GetRef(), Status: p.follows.Proto()}}}
		case *pb.MultiplexRequest_Act:
			p.mu.Lock()
			n := len(p.acts)
			p.acts = append(p.acts, k.Act.GetRequest())
			p.at = append(p.at, time.Now())
			p.streams = append(p.streams, stream)
			p.mu.Unlock()
			a := &pb.MultiplexAnswer{Call: k.Act.GetCall(), Response: &pb.ActResponse{Seq: 7}}
			if n < len(p.answers) {
				if p.answers[n] == breakStream {
					return status.Error(codes.Unavailable, "stream broken")
				}
				a = &pb.MultiplexAnswer{Call: k.Act.GetCall(), Error: p.answers[n].Proto()}
			}
			it = &pb.MultiplexItem{Kind: &pb.MultiplexItem_Answer{Answer: a}}
		default:
			continue
		}
		// Items for nobody around it, which the client must drop: an
		// answer to no call, an event and an end of no follow, an empty
		// item.
		items := []*pb.MultiplexItem{it}
		if p.junk {
			items = []*pb.MultiplexItem{
				{Kind: &pb.MultiplexItem_Answer{Answer: &pb.MultiplexAnswer{Call: 1 << 60, Response: &pb.ActResponse{Seq: 99}}}},
				{Kind: &pb.MultiplexItem_Event{Event: &pb.MultiplexEvent{Ref: 9999, Event: &pb.StreamEventsResponse{}}}},
				it,
				{Kind: &pb.MultiplexItem_End{End: &pb.MultiplexEnd{Ref: 9999}}},
				{},
			}
		}
		if err := st.Send(&pb.MultiplexResponse{Items: items}); err != nil {
			return err
		}
	}
}

// apiStatus is an error status of the API: code, ErrorInfo reason and
// metadata, and a RetryInfo when delay is set.
func apiStatus(t *testing.T, code codes.Code, reason pb.ErrorReason, meta map[string]string, delay time.Duration) *status.Status {
	t.Helper()
	details := []protoadapt.MessageV1{&errdetails.ErrorInfo{Reason: reason.String(), Domain: "authority.mahjong", Metadata: meta}}
	if delay > 0 {
		details = append(details, &errdetails.RetryInfo{RetryDelay: durationpb.New(delay)})
	}
	st, err := status.New(code, reason.String()).WithDetails(details...)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func serveScript(t *testing.T, p *muxScript) *client.Client {
	t.Helper()
	return dial(t, serveScriptAt(t, p))
}

// serveScriptAt serves p and returns its address.
func serveScriptAt(t *testing.T, p *muxScript) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer()
	pb.RegisterTableServiceServer(g, p)
	go g.Serve(lis)
	t.Cleanup(g.Stop)
	return lis.Addr().String()
}

// TestMuxAnswers plays actions over a Mux against scripted answers: a
// refusal comes back as the error a unary Act returns (code, Reason,
// RetryDelay); a rate limit is waited out and the same request
// sent again; a broken stream is replaced by one new stream and the
// action in flight is resent there with the same request id.
func TestMuxAnswers(t *testing.T) {
	const delay = 60 * time.Millisecond
	limited := apiStatus(t, codes.ResourceExhausted, pb.ErrorReason_ERROR_REASON_RATE_LIMITED, nil, delay)
	stale := apiStatus(t, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_STALE_SEQ, nil, 0)
	for _, tc := range []struct {
		name    string
		answers []*status.Status
		// want: the seq or the refusal's code and reason; attempts and
		// the streams they came on; the session's counts.
		seq        uint64
		code       codes.Code
		reason     pb.ErrorReason
		owner      string
		streams    []int
		throttled  int
		actRetries int
	}{
		{name: "accepted", seq: 7, streams: []int{1}},
		{name: "refused", answers: []*status.Status{stale}, code: codes.FailedPrecondition, reason: pb.ErrorReason_ERROR_REASON_STALE_SEQ, streams: []int{1}},
		{name: "rate limited twice", answers: []*status.Status{limited, limited}, seq: 7, streams: []int{1, 1, 1}, throttled: 2},
		{name: "stream broken", answers: []*status.Status{breakStream}, seq: 7, streams: []int{1, 2}, actRetries: 1},
		{name: "broken then limited", answers: []*status.Status{breakStream, limited, breakStream}, seq: 7, streams: []int{1, 2, 2, 3}, throttled: 1, actRetries: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &muxScript{answers: tc.answers, junk: true}
			c := serveScript(t, p)
			m := c.Mux(context.Background())
			defer m.Close()
			s := c.Follow(client.Seat{TableID: "t", Seat: 1, Token: "tok"}, client.Options{Mux: m, Backoff: client.Backoff{Initial: time.Millisecond, Max: time.Millisecond}})
			defer s.Close()
			seq, err := s.Act(ctxT(t), table.Action{Seat: 1, Type: table.Pass})
			if seq != tc.seq || status.Code(err) != tc.code || client.Reason(err) != tc.reason {
				t.Fatalf("Act = %d, %v (reason %v); want %d, %v, %v", seq, err, client.Reason(err), tc.seq, tc.code, tc.reason)
			}
			if addr, _ := client.OwnerAddr(err); addr != tc.owner {
				t.Errorf("owner %q, want %q", addr, tc.owner)
			}
			if _, ok := client.RetryDelay(err); ok || client.Retryable(err) {
				t.Errorf("the final error %v reads as retryable", err)
			}
			p.mu.Lock()
			defer p.mu.Unlock()
			if !equalInts(p.streams, tc.streams) {
				t.Fatalf("attempts on streams %v, want %v", p.streams, tc.streams)
			}
			for i := 1; i < len(p.acts); i++ {
				if p.acts[i].GetRequestId() != p.acts[0].GetRequestId() || p.acts[i].GetLastSeq() != p.acts[0].GetLastSeq() {
					t.Errorf("attempt %d: request %q, want the first's %q", i, p.acts[i].GetRequestId(), p.acts[0].GetRequestId())
				}
				if tc.answers[i-1] == limited {
					if gap := p.at[i].Sub(p.at[i-1]); gap < delay || gap > delay+time.Second {
						t.Errorf("attempt %d came %v after a rate limit of %v", i, gap, delay)
					}
				}
			}
			if st := s.Stats(); st.Throttled != tc.throttled || st.ActRetries != tc.actRetries {
				t.Errorf("stats %+v, want %d throttled and %d act retries", st, tc.throttled, tc.actRetries)
			}
		})
	}
}

// TestMuxFollowsOwner: an action refused with TABLE_ELSEWHERE is sent
// again, with the same request id, on a Mux of the owner's that the
// session's Mux opens, and so are the session's next actions; a client on
// a connection of the caller's cannot reach the owner and gets the refusal,
// with the owner's address.
func TestMuxFollowsOwner(t *testing.T) {
	owner := &muxScript{}
	ownerAddr := serveScriptAt(t, owner)
	elsewhere := apiStatus(t, codes.FailedPrecondition, pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE, map[string]string{client.MetaOwnerAddr: ownerAddr}, 0)
	seat := client.Seat{TableID: "t", Seat: 1, Token: "tok"}

	home := &muxScript{answers: []*status.Status{elsewhere, elsewhere}}
	c := dial(t, serveScriptAt(t, home))
	m := c.Mux(context.Background())
	defer m.Close()
	s := c.Follow(seat, client.Options{Mux: m})
	defer s.Close()
	for range 2 {
		if seq, err := s.Act(ctxT(t), table.Action{Seat: 1, Type: table.Pass}); seq != 7 || err != nil {
			t.Fatalf("Act = %d, %v; want 7 from the owner", seq, err)
		}
	}
	home.mu.Lock()
	owner.mu.Lock()
	if len(home.acts) != 1 || len(owner.acts) != 2 || owner.acts[0].GetRequestId() != home.acts[0].GetRequestId() {
		t.Errorf("actions: %d at home, %d at the owner (first ids %q, %q); want the first at both with one id, the second at the owner only",
			len(home.acts), len(owner.acts), home.acts[0].GetRequestId(), owner.acts[0].GetRequestId())
	}
	owner.mu.Unlock()
	home.mu.Unlock()

	conn, err := grpc.NewClient(serveScriptAt(t, &muxScript{answers: []*status.Status{elsewhere}}), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c2 := client.New(conn)
	m2 := c2.Mux(context.Background())
	defer m2.Close()
	s2 := c2.Follow(seat, client.Options{Mux: m2})
	defer s2.Close()
	_, err = s2.Act(ctxT(t), table.Action{Seat: 1, Type: table.Pass})
	if addr, _ := client.OwnerAddr(err); client.Reason(err) != pb.ErrorReason_ERROR_REASON_TABLE_ELSEWHERE || addr != ownerAddr {
		t.Fatalf("Act on a client made with New = %v (owner %q); want TABLE_ELSEWHERE naming %s", err, addr, ownerAddr)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestMuxFollowRefused has every follow refused: the session's Next
// returns the refusal as a StreamEvents stream's would be, with its reason,
// and a follow that ended OK reads as the end of the game.
func TestMuxFollowRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		end    *status.Status
		reason pb.ErrorReason
		eof    bool
	}{
		{name: "bad token", end: apiStatus(t, codes.PermissionDenied, pb.ErrorReason_ERROR_REASON_WRONG_TOKEN, nil, 0), reason: pb.ErrorReason_ERROR_REASON_WRONG_TOKEN},
		{name: "ended", end: status.New(codes.OK, ""), eof: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := serveScript(t, &muxScript{follows: tc.end, junk: true})
			m := c.Mux(context.Background())
			defer m.Close()
			s := c.Follow(client.Seat{TableID: "t", Seat: 1, Token: "tok"}, client.Options{Mux: m})
			defer s.Close()
			_, err := s.Next(ctxT(t))
			if tc.eof {
				// Ended before the game's end was received: as a
				// StreamEvents stream that ends early.
				if err == nil || errors.Is(err, io.EOF) {
					t.Fatalf("Next = %v, want the error of a stream ended before the game", err)
				}
				return
			}
			if status.Code(err) != tc.end.Code() || client.Reason(err) != tc.reason {
				t.Fatalf("Next = %v (reason %v), want %v %v", err, client.Reason(err), tc.end.Code(), tc.reason)
			}
		})
	}
}

// Act answers every unary action with seq 7, as the script's Multiplex
// answers past its script.
func (p *muxScript) Act(context.Context, *pb.ActRequest) (*pb.ActResponse, error) {
	return &pb.ActResponse{Seq: 7}, nil
}

// BenchmarkSend sends actions one after another to a server that answers
// at once, on unary Act calls and on a Mux: the client's cost of an
// action on each transport (the in-process server's included, the same
// for both).
func BenchmarkSend(b *testing.B) {
	for _, mux := range []bool{false, true} {
		name := "unary"
		if mux {
			name = "mux"
		}
		b.Run(name, func(b *testing.B) {
			p := &muxScript{}
			lis, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				b.Fatal(err)
			}
			g := grpc.NewServer()
			pb.RegisterTableServiceServer(g, p)
			go g.Serve(lis)
			defer g.Stop()
			c, err := client.Dial(lis.Addr().String())
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			var opts client.Options
			if mux {
				opts.Mux = c.Mux(context.Background())
				defer opts.Mux.Close()
			}
			s := c.Follow(client.Seat{TableID: "t", Seat: 1, Token: "tok"}, opts)
			defer s.Close()
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				pr, err := s.Prepare(table.Action{Seat: 1, Type: table.Pass})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := s.Send(ctx, pr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
