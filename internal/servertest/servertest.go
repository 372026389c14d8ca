// Package servertest runs the authority in process for tests, as
// net/http/httptest does for HTTP handlers: a server.Server serving gRPC
// on a real TCP listener of 127.0.0.1, stopped when the test ends.
//
// It is a package of its own, not a test file, because the tests of the
// server, of its Go client and of tablectl all start the same server; it
// is imported by tests only.
package servertest

import (
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/mahjong-authority/authority/internal/doudizhu/service"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
	"github.com/mahjong-authority/authority/internal/server"
)

// Server is a server.Server serving gRPC on a TCP listener.
type Server struct {
	*server.Server
	Addr string // host:port
	// Doudizhu is the Dou Dizhu service beside the mahjong API, when
	// started with StartWithDoudizhu.
	Doudizhu *service.Service

	tb        testing.TB
	g         *grpc.Server // nil while stopped
	served    chan error
	closeOnce sync.Once
}

// Start creates a server from cfg, resumes the tables of its store (as the
// authority binary does before it serves) and serves it on a free port of

// StartWithDoudizhu is Start with Dou Dizhu served beside the mahjong
// API, as cmd/authority serves it: on the server's hosting, its tables in
// memory.
func StartWithDoudizhu(tb testing.TB, cfg server.Config) *Server {
	tb.Helper()
	srv, err := server.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	s := &Server{Server: srv, Addr: "127.0.0.1:0", tb: tb}
	s.Doudizhu = service.New(service.Config{Hosting: srv.Hosting(), Defaults: cfg.Defaults})
	tb.Cleanup(s.Close)
	s.serve()
	return s
}

// 127.0.0.1 until Close, which the end of the test calls.
func Start(tb testing.TB, cfg server.Config) *Server {
	tb.Helper()
	srv, err := server.New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := srv.Recover(context.Background()); err != nil {
		srv.Close()
		tb.Fatal(err)
	}
	s := &Server{Server: srv, Addr: "127.0.0.1:0", tb: tb}
	tb.Cleanup(s.Close)
	s.serve()
	return s
}

func (s *Server) serve() {
	s.tb.Helper()
	var lis net.Listener
	var err error
	for range 100 { // on a restart the old listener's port may take a moment to free
		if lis, err = net.Listen("tcp", s.Addr); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err != nil {
		s.tb.Fatal(err)
	}
	s.Addr = lis.Addr().String()
	s.g = grpc.NewServer(s.Options()...)
	s.Register(s.g)
	if s.Doudizhu != nil {
		s.Doudizhu.Register(s.g)
	}
	s.served = make(chan error, 1)
	go func() { s.served <- s.g.Serve(s.Listener(lis)) }()
}

// Stop stops serving: every connection and stream drops, as when the
// process dies, but the tables live on; Restart serves them again.
func (s *Server) Stop() {
	s.tb.Helper()
	if s.g == nil {
		return
	}
	s.g.Stop()
	if err := <-s.served; err != nil {
		s.tb.Errorf("Serve: %v", err)
	}
	s.g = nil
}

// Restart stops serving, waits down and serves the same tables on the
// same address again: a restarted server with its data.
func (s *Server) Restart(down time.Duration) {
	s.tb.Helper()
	s.Stop()
	time.Sleep(down)
	s.serve()
}

// Close stops the tables (their streams end) and then serving. It may be
// called more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		if s.Doudizhu != nil {
			s.Doudizhu.Close()
		}
		s.Server.Close()
		s.Stop()
	})
}

// Dial returns a connection to the server, closed at the end of the test.
func (s *Server) Dial() *grpc.ClientConn {
	s.tb.Helper()
	conn, err := grpc.NewClient(s.Addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		s.tb.Fatal(err)
	}
	s.tb.Cleanup(func() { conn.Close() })
	return conn
}

// Riichi is the configuration of a server that hosts riichi with the real
// parts (riichi.Standard), tables in memory: what the tests of the client
// and of the commands start.
func Riichi() server.Config {
	return server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())}}
}

// Standard is the configuration of a server that hosts every rule set the
// authority binary does, riichi, Sichuan and Chinese Official, with the real parts, tables
// in memory.
func Standard() server.Config {
	return server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard()), sichuan.New(sichuan.Standard()), mcr.New(mcr.Config{})}}
}

// RiichiAndMCR is the configuration of a server that hosts riichi and
// Chinese Official tables with the real parts, in memory.
func RiichiAndMCR() server.Config {
	return server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard()), mcr.New(mcr.Config{})}}
}
