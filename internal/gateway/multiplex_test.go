package gateway_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/gateway"
)

// TestMultiplexThrough: a native gRPC client's Multiplex stream passes
// the gateway unchanged (a follow's snapshot, a malformed request ending
// the stream with its status); Connect (binary and JSON) and gRPC-Web
// clients over HTTP/2 get the same through the transcoder, and a stream
// the client half-closes ends with OK once its follows have ended. The
// malformed request is sent while the client's side is open: the server
// ends such a stream while the client still sends, which hung in the
// transcoder before unblockClose (the test then hangs until go test's
// -timeout).
func TestMultiplexThrough(t *testing.T) {
	addr := serveMux(t, newServer(t), gateway.Config{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	c := pb.NewTableServiceClient(conn)
	cr, err := c.CreateTable(ctx, &pb.CreateTableRequest{})
	if err != nil {
		t.Fatal(err)
	}
	jr, err := c.JoinTable(ctx, &pb.JoinTableRequest{TableId: cr.GetTable().GetTableId(), Name: "p"})
	if err != nil {
		t.Fatal(err)
	}
	follow := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: 1,
		Request: &pb.StreamEventsRequest{TableId: cr.GetTable().GetTableId(), SeatToken: jr.GetSeatToken()}}}}
	unfollow := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Unfollow{Unfollow: &pb.MultiplexUnfollow{Ref: 1}}}
	// Not empty in either codec (an empty message once passed only because
	// the transcoder read it as the end of the client's side too).
	bad := &pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Unfollow{Unfollow: &pb.MultiplexUnfollow{}}}

	st, err := c.Multiplex(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Send(follow); err != nil {
		t.Fatal(err)
	}
	r, err := st.Recv()
	if err != nil || r.GetItems()[0].GetEvent().GetEvent().GetSnapshot() == nil {
		t.Fatalf("native gRPC: first response %v, %v; want the snapshot", r, err)
	}
	if err := st.Send(bad); err != nil {
		t.Fatal(err)
	}
	for err == nil {
		_, err = st.Recv()
	}
	if status.Code(err) != codes.InvalidArgument {
		t.Fatalf("native gRPC: a malformed request ended the stream with %v", err)
	}

	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	tr := &http.Transport{Protocols: &p}
	defer tr.CloseIdleConnections()
	for _, tc := range []struct {
		name string
		opts []connect.ClientOption
	}{
		{"Connect", nil},
		{"Connect JSON", []connect.ClientOption{connect.WithProtoJSON()}},
		{"gRPC-Web", []connect.ClientOption{connect.WithGRPCWeb()}},
		{"gRPC-Web JSON", []connect.ClientOption{connect.WithGRPCWeb(), connect.WithProtoJSON()}},
	} {
		cc := connect.NewClient[pb.MultiplexRequest, pb.MultiplexResponse](&http.Client{Transport: tr}, "http://"+addr+svc+"Multiplex", tc.opts...)
		open := func() *connect.BidiStreamForClient[pb.MultiplexRequest, pb.MultiplexResponse] {
			t.Helper()
			bs := cc.CallBidiStream(ctx)
			if err := bs.Send(follow); err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got, err := bs.Receive()
			if err != nil || got.GetItems()[0].GetEvent().GetEvent().GetSnapshot() == nil {
				t.Fatalf("%s over HTTP/2: first response %v, %v; want the snapshot", tc.name, got, err)
			}
			return bs
		}

		bs := open()
		_ = bs.Send(bad)
		var err error
		for err == nil {
			_, err = bs.Receive()
		}
		if connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Fatalf("%s over HTTP/2: a malformed request ended the stream with %v", tc.name, err)
		}
		_ = bs.CloseRequest()
		_ = bs.CloseResponse()

		bs = open()
		if err := bs.Send(unfollow); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if err := bs.CloseRequest(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var ended bool
		err = nil
		for err == nil {
			var got *pb.MultiplexResponse
			got, err = bs.Receive()
			for _, it := range got.GetItems() {
				ended = ended || it.GetEnd().GetStatus().GetCode() == int32(codes.Canceled)
			}
		}
		if !errors.Is(err, io.EOF) || !ended {
			t.Fatalf("%s over HTTP/2: after an unfollow and a half-close, follow ended %v, stream ended with %v; want CANCELLED and OK", tc.name, ended, err)
		}
		_ = bs.CloseResponse()
	}
}
