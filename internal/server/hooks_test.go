package server

import (
	"context"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// CreateForTest runs the CreateTable handler without a connection.
func CreateForTest(ctx context.Context, s *Server, req *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
	return s.table.CreateTable(ctx, req)
}

// ExportForTest runs the ExportGame handler without a connection.
func ExportForTest(ctx context.Context, s *Server, req *pb.ExportGameRequest) (*pb.ExportGameResponse, error) {
	return s.table.ExportGame(ctx, req)
}

// SetMuxOutboxForTest bounds every Multiplex stream's outbox to n bytes
// until restore.
func SetMuxOutboxForTest(n int) (restore func()) {
	old := muxMaxOutbox
	muxMaxOutbox = n
	return func() { muxMaxOutbox = old }
}
