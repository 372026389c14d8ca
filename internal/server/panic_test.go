package server_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest/observer"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/metrics"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/table"
)

// panicEngine is the fake engine with a bug: while armed, a discard
// panics.
type panicEngine struct {
	riichi.Engine
	armed *atomic.Bool
}

func (p panicEngine) Step(a table.Action) ([]table.Event, error) {
	if a.Type == table.Discard && p.armed.Load() {
		panic("fake engine: a bug on a discard")
	}
	return p.Engine.Step(a)
}

// TestEnginePanicSetsTableAside checks that an engine that panics in one
// table's call fails that table alone: the request that ran into it
// and every later one get DATA_LOSS / TABLE_DAMAGED, the panic is logged
// with its stack, and another table plays a whole game afterwards on the
// same server.
func TestEnginePanicSetsTableAside(t *testing.T) {
	var armed atomic.Bool
	core, logs := observer.New(zapcore.ErrorLevel)
	cfg := baseConfig()
	cfg.Log = zap.New(core)
	m := metrics.New(nil)
	cfg.Observer = m
	fake := cfg.NewEngine
	cfg.NewEngine = func(c table.Config) (riichi.Engine, error) {
		eng, err := fake(c)
		return panicEngine{Engine: eng, armed: &armed}, err
	}
	e := startEnv(t, cfg)

	armed.Store(true)
	bad, owner := e.create(t, &pb.TableSettings{FillWithBots: true})
	_, err := e.tables.StartTable(ctxT(t), &pb.StartTableRequest{TableId: bad, Token: owner})
	wantStatus(t, "StartTable whose bots' first discard panics", err, codes.DataLoss, pb.ErrorReason_ERROR_REASON_TABLE_DAMAGED)
	armed.Store(false)
	assert.NotContains(t, status.Convert(err).Message(), "a bug on a discard", "the client learns nothing of the panic")

	_, err = e.tables.GetTable(ctxT(t), &pb.GetTableRequest{TableId: bad})
	wantStatus(t, "GetTable of the table set aside", err, codes.DataLoss, pb.ErrorReason_ERROR_REASON_TABLE_DAMAGED)
	_, err = e.tables.ExportGame(ctxT(t), &pb.ExportGameRequest{TableId: bad})
	wantStatus(t, "ExportGame of the table set aside", err, codes.DataLoss, pb.ErrorReason_ERROR_REASON_TABLE_DAMAGED)
	got := logs.FilterMessageSnippet("set aside").All()
	require.Len(t, got, 1)
	assert.Contains(t, got[0].ContextMap()["stack"], "panicEngine.Step", "the log holds the stack")

	good := e.botGame(t, 7) // a whole game, after the panic
	assert.Equal(t, pb.TableState_TABLE_STATE_FINISHED, e.table(t, good).GetState())

	// The operator sees it in the metrics too.
	fams, err := m.Registry().Gather()
	require.NoError(t, err)
	var setAside float64
	for _, f := range fams {
		if f.GetName() != "authority_tables_set_aside_total" {
			continue
		}
		for _, s := range f.GetMetric() {
			if s.GetLabel()[0].GetValue() == "panic" {
				setAside = s.GetCounter().GetValue()
			}
		}
	}
	assert.Equal(t, 1.0, setAside, "authority_tables_set_aside_total{reason=\"panic\"}")
}

// panicHealth is a service whose handlers panic.
type panicHealth struct {
	healthpb.UnimplementedHealthServer
}

func (panicHealth) Check(context.Context, *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	panic("health: a bug in a unary handler")
}

func (panicHealth) Watch(*healthpb.HealthCheckRequest, healthpb.Health_WatchServer) error {
	panic("health: a bug in a stream handler")
}

// TestHandlerPanicIsInternal checks that a panic in a handler, unary or
// streaming, served with the server's Options fails that call alone
// with INTERNAL, logged with its stack, and the server serves on.
func TestHandlerPanicIsInternal(t *testing.T) {
	core, logs := observer.New(zapcore.ErrorLevel)
	cfg := baseConfig()
	cfg.Log = zap.New(core)
	srv, err := newServer(cfg)
	require.NoError(t, err)
	defer srv.Close()
	g := grpc.NewServer(srv.Options()...)
	srv.Register(g)
	healthpb.RegisterHealthServer(g, panicHealth{})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go g.Serve(srv.Listener(lis))
	defer g.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()

	health := healthpb.NewHealthClient(conn)
	_, err = health.Check(ctxT(t), &healthpb.HealthCheckRequest{})
	assert.Equal(t, codes.Internal, status.Code(err), "unary: %v", err)
	w, err := health.Watch(ctxT(t), &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	_, err = w.Recv()
	assert.Equal(t, codes.Internal, status.Code(err), "stream: %v", err)

	entries := logs.FilterMessageSnippet("panic in a handler").All()
	require.Len(t, entries, 2)
	for _, en := range entries {
		assert.Contains(t, en.ContextMap()["stack"], "panicHealth", "the log holds the stack")
	}
	assert.Equal(t, "health: a bug in a unary handler", entries[0].ContextMap()["panic"], "the handler's own panic, raised again from its worker")
	tables := pb.NewTableServiceClient(conn)
	_, err = tables.CreateTable(ctxT(t), &pb.CreateTableRequest{})
	assert.NoError(t, err, "the server serves on")
}
