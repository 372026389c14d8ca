package server_test

import (
	"net"
	"testing"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/server"
)

// TestUnlimitedConnectionWarned: calls on a connection that has no
// per-connection limits (its listener not wrapped by Server.Listener) are
// served, and the first is logged as a warning, once; a server served as
// it should be logs nothing of the kind.
func TestUnlimitedConnectionWarned(t *testing.T) {
	const warning = "without per-connection limits"
	serve := func(t *testing.T, wrap bool) *observer.ObservedLogs {
		core, logs := observer.New(zapcore.WarnLevel)
		cfg := baseConfig().server()
		cfg.Log = zap.New(core)
		srv, err := server.New(cfg)
		require.NoError(t, err)
		t.Cleanup(srv.Close)
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		g := grpc.NewServer(srv.Options()...)
		srv.Register(g)
		if wrap {
			lis = srv.Listener(lis)
		}
		go g.Serve(lis)
		t.Cleanup(g.Stop)
		conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
		require.NoError(t, err)
		t.Cleanup(func() { conn.Close() })
		tables := pb.NewTableServiceClient(conn)
		for range 3 {
			_, err := tables.ListTables(ctxT(t), &pb.ListTablesRequest{})
			require.NoError(t, err)
		}
		return logs
	}
	require.Len(t, serve(t, false).FilterMessageSnippet(warning).All(), 1, "an unwrapped listener: one warning")
	require.Empty(t, serve(t, true).FilterMessageSnippet(warning).All(), "a wrapped listener: none")
}
