package service_test

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	mpb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	mclient "github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/doudizhu/bot"
	"github.com/mahjong-authority/authority/internal/doudizhu/client"
	"github.com/mahjong-authority/authority/internal/doudizhu/service"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

// env is an authority on a TCP port serving the mahjong API and Dou
// Dizhu's, as cmd/authority wires them.
type env struct {
	srv   *server.Server
	svc   *service.Service
	c     *client.Client
	mahj  mpb.TableServiceClient
	store host.Store[table.Action]
	stop  func()
}

var testDefaults = server.Defaults{RoundPause: time.Millisecond}

func startEnv(t *testing.T, store host.Store[table.Action], maxTables int) *env {
	t.Helper()
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())}, Defaults: testDefaults, MaxTables: maxTables})
	if err != nil {
		t.Fatal(err)
	}
	svc := service.New(service.Config{Hosting: srv.Hosting(), Defaults: testDefaults, Store: store})
	if _, err := svc.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(srv.Options()...)
	srv.Register(g)
	svc.Register(g)
	go g.Serve(srv.Listener(lis)) //nolint:errcheck // ends with Stop
	conn, err := mclient.DialConn(lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	e := &env{srv: srv, svc: svc, c: client.New(conn), mahj: mpb.NewTableServiceClient(conn), store: store}
	stopped := false
	e.stop = func() {
		if stopped {
			return
		}
		stopped = true
		conn.Close()
		svc.Close()
		srv.Close()
		g.Stop()
	}
	t.Cleanup(e.stop)
	return e
}

func seed(b byte) []byte {
	s := make([]byte, 32)
	s[0] = b
	return s
}

func (e *env) create(t *testing.T, set *pb.TableSettings) (string, string) {
	t.Helper()
	r, err := e.c.Tables.CreateTable(context.Background(), &pb.CreateTableRequest{Settings: set})
	if err != nil {
		t.Fatal(err)
	}
	return r.GetTable().GetTableId(), r.GetOwnerToken()
}

// play plays a seat with package bot over the wire until the match is
// over, and returns every stream message it received.
func play(ctx context.Context, s *client.Session) ([]client.Update, error) {
	var b bot.Bot
	var got []client.Update
	for {
		u, err := s.Next(ctx)
		if errors.Is(err, io.EOF) {
			return got, nil
		}
		if err != nil {
			return got, err
		}
		got = append(got, u)
		if s.Over() {
			continue
		}
		if !s.MyTurn() || (u.Event != nil && u.Event.GetOffer() == nil && u.Snapshot == nil) {
			continue
		}
		a, err := b.Act(s.View())
		if err != nil {
			return got, err
		}
		if _, err := s.Act(ctx, a); err != nil {
			// A timer may play the seat first (short turn times): the
			// seat's view moved on, and its next offer will come.
			if server.Reason(err) == mpb.ErrorReason_ERROR_REASON_STALE_SEQ {
				continue
			}
			return got, err
		}
	}
}

type botT = bot.Bot

// snapshotOf opens a stream of the seat from the start and returns the
// snapshot's view.
func snapshotOf(t *testing.T, e *env, s client.Seat) *pb.View {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := e.c.Tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: s.TableID, SeatToken: s.Token})
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.Recv()
	if err != nil || m.GetSnapshot() == nil {
		t.Fatalf("first message %v: %v", m, err)
	}
	return m.GetSnapshot().GetView()
}

// snapshotSeq is the seq of the seat's snapshot now.
func snapshotSeq(t *testing.T, e *env, s client.Seat) uint64 {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	st, err := e.c.Tables.StreamEvents(ctx, &pb.StreamEventsRequest{TableId: s.TableID, SeatToken: s.Token})
	if err != nil {
		t.Fatal(err)
	}
	m, err := st.Recv()
	if err != nil {
		t.Fatal(err)
	}
	return m.GetSnapshot().GetSeq()
}

var reqs int

func act(e *env, s client.Seat, last uint64, a *pb.Action) error {
	reqs++
	_, err := e.c.Tables.Act(context.Background(), &pb.ActRequest{TableId: s.TableID, SeatToken: s.Token, LastSeq: last,
		RequestId: "r" + string(rune('a'+reqs%26)) + time.Now().Format("150405.000000000"), Action: a})
	return err
}
