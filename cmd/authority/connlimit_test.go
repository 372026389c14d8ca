package main

import (
	"context"
	"io"
	"net"
	"testing"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// TestServeConnLimits: the binary gives each native gRPC connection its
// own rate bucket (--conn-rate, --conn-burst) through the server's
// listener: the third call on a connection with a burst of two is
// refused, and a second connection has a burst of its own.
func TestServeConnLimits(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse([]string{"--conn-rate", "0.001", "--conn-burst", "2"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, nil, zap.NewNop(), o) }()
	defer func() {
		stop()
		if err := <-served; err != nil {
			t.Error(err)
		}
	}()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for c := range 2 {
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		tables := pb.NewTableServiceClient(conn)
		for i := range 3 {
			_, err := tables.ListTables(cctx, &pb.ListTablesRequest{})
			if i < 2 && err != nil {
				t.Fatalf("connection %d, call %d: %v", c, i, err)
			}
			if i == 2 && status.Code(err) != codes.ResourceExhausted {
				t.Fatalf("connection %d, third call with a burst of 2: %v, want ResourceExhausted", c, err)
			}
		}
	}
}
