package main

import (
	"net"
	"testing"

	"go.uber.org/goleak"
	"google.golang.org/grpc"

	"github.com/mahjong-authority/authority/internal/bot"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/table"
	"github.com/mahjong-authority/authority/internal/wall"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// startServer runs the authority in process on 127.0.0.1:0 (the real
// engine, walls and bots, no rate limits) and returns its address.
func startServer(t *testing.T) (string, *server.Server) {
	t.Helper()
	srv, err := server.New(server.Config{
		NewEngine: func(cfg table.Config) (server.Engine, error) {
			t, err := table.New(cfg)
			if err != nil {
				return nil, err
			}
			return t, nil
		},
		NewWall: wall.New,
		Bot:     func() host.Bot[table.Action, table.View] { return server.TableBot{Bot: bot.Efficient{}} },
	})
	if err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(srv.Options()...)
	srv.Register(g)
	served := make(chan error, 1)
	go func() { served <- g.Serve(lis) }()
	t.Cleanup(func() {
		srv.Close()
		g.Stop()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return lis.Addr().String(), srv
}
