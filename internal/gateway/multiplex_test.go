package gateway_test

import (
	"context"
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
// the stream with its status); a Connect client over HTTP/2 (binary)
// gets the same through the transcoder.
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
	bad := &pb.MultiplexRequest{}

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
	// Connect binary only: gRPC-Web has no client streams, and Connect
	// JSON's bidi stream was seen to hang in the transcoder (docs/protocol.md).
	for _, name := range []string{"Connect"} {
		cc := connect.NewClient[pb.MultiplexRequest, pb.MultiplexResponse](&http.Client{Transport: tr}, "http://"+addr+svc+"Multiplex")
		bs := cc.CallBidiStream(ctx)
		if err := bs.Send(follow); err != nil {
			t.Fatal(err)
		}
		got, err := bs.Receive()
		if err != nil || got.GetItems()[0].GetEvent().GetEvent().GetSnapshot() == nil {
			t.Fatalf("%s over HTTP/2: first response %v, %v; want the snapshot", name, got, err)
		}
		_ = bs.Send(bad)
		for err == nil {
			_, err = bs.Receive()
		}
		if connect.CodeOf(err) != connect.CodeInvalidArgument {
			t.Fatalf("%s over HTTP/2: a malformed request ended the stream with %v", name, err)
		}
		_ = bs.CloseRequest()
		_ = bs.CloseResponse()
	}
}
