// Package server is the gRPC face of the authority: it checks requests,
// converts between the wire (package authorityv1, tiles as MPSZ strings) and
// the table's types, runs tables on the host (package host) and maps every
// domain error to a status code with a machine-readable reason. The
// authority binary and in-process tools share it.
package server

import (
	"context"
	"crypto/rand"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/stats"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/table"
)

// Host is the host instantiated for riichi tables.
type Host = host.Host[table.Action, table.View, table.Body]

// Defaults are the timers of tables whose creator left them zero.
type Defaults struct {
	TurnTime        time.Duration
	ClaimTime       time.Duration
	SpectatorDelay  time.Duration
	DisconnectGrace time.Duration
	RoundPause      time.Duration
	ClaimDwell      time.Duration // for tables created without claim_dwell
}

// StandardDefaults are the defaults of the authority binary.
var StandardDefaults = Defaults{
	TurnTime:        20 * time.Second,
	ClaimTime:       8 * time.Second,
	SpectatorDelay:  10 * time.Second,
	DisconnectGrace: 30 * time.Second,
	RoundPause:      3 * time.Second,
	ClaimDwell:      time.Second,
}

// Config configures a Server. NewEngine and NewWall are required.
type Config struct {
	Log       *zap.Logger
	Clock     clock.Clock
	NewEngine NewEngine
	NewWall   NewWall
	// RestoreEngine makes an engine from its snapshot; default
	// table.Restore. Tables whose engine snapshots itself (has the
	// Snapshot method of *table.Table) are snapshotted at every round
	// boundary, so that recovery replays only the round in progress.
	RestoreEngine RestoreEngine
	// Store keeps the tables; default in memory, where a table is
	// deleted when it leaves the host's memory (see FinishedTTL).
	Store    host.Store[table.Action]
	Bot      func() host.Bot[table.Action, table.View] // default: the timeout action
	SeatRate host.Rate                                 // per seat, on Act
	ConnRate host.Rate                                 // per connection, on every table or judge RPC
	Defaults Defaults
	// MaxTables bounds the tables not finished (0: no bound).
	MaxTables int
	// MaxSeatStreams bounds one seat's open streams (default 4);
	// MaxConnStreams one connection's (default 16).
	MaxSeatStreams, MaxConnStreams int
	// FinishedTTL is how long a finished table stays in memory, IdleTTL
	// how long one that has not started stays without a seat taken or
	// given up (zero: for ever). A finished table that left memory is
	// read back from Store for GetTable, ExportGame and streams, for as
	// long as the store keeps it: KeepGames after its game ended (zero:
	// for ever). See host.Config.
	FinishedTTL, IdleTTL, KeepGames time.Duration
	// Observer is told what the server does, for metrics (package
	// metrics); default nothing.
	Observer Observer
}

// Observer is told what the server does, for an operator's metrics: the
// host's hooks and the adapter's own. Like the host's, its methods run
// on the hot path: quick, concurrent, without allocation.
type Observer interface {
	host.Observer[table.Action]
	// Judged is told how long the engine's step of a discard took: the
	// judge's work on it (waits, furiten, claim offers, the next turn's
	// options) is most of it.
	Judged(d time.Duration)
	// RoundEnded is told of every round that ended. Like Judged, it is
	// told by the engine adapter, also for the steps a recovery replays
	// (the round in progress, after a snapshot).
	RoundEnded()
	// ConnRateLimited is told of every call refused by the per-connection
	// rate limit (the per-seat one is an Acted refusal).
	ConnRateLimited()
}

type nopObserver struct{ host.NopObserver[table.Action] }

func (nopObserver) Judged(time.Duration) {}
func (nopObserver) RoundEnded()          {}
func (nopObserver) ConnRateLimited()     {}

// Server implements TableService and JudgeService.
type Server struct {
	cfg   Config
	host  *Host
	table tableService
	judge judgeService
}

// New returns a Server; Close stops its tables.
func New(cfg Config) (*Server, error) {
	if cfg.NewEngine == nil || cfg.NewWall == nil {
		return nil, fmt.Errorf("server: NewEngine and NewWall are required")
	}
	if cfg.Log == nil {
		cfg.Log = zap.NewNop()
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real
	}
	if cfg.Observer == nil {
		cfg.Observer = nopObserver{}
	}
	if cfg.MaxConnStreams <= 0 {
		cfg.MaxConnStreams = 16
	}
	if cfg.RestoreEngine == nil {
		cfg.RestoreEngine = func(c table.Config, s table.Snapshot) (Engine, error) { return table.Restore(c, s) }
	}
	s := &Server{cfg: cfg}
	s.host = host.New(host.Config[table.Action, table.View, table.Body]{
		Clock: cfg.Clock, Log: cfg.Log, Store: cfg.Store, Bot: cfg.Bot, SeatRate: cfg.SeatRate, Codec: Codec{},
		Observer:  cfg.Observer,
		MaxTables: cfg.MaxTables, MaxSeatStreams: cfg.MaxSeatStreams,
		FinishedTTL: cfg.FinishedTTL, IdleTTL: cfg.IdleTTL, KeepGames: cfg.KeepGames,
		// The default store is memory: what leaves the host's memory
		// must leave it too.
		ForgetEvicted: cfg.Store == nil,
		GameFor:       s.storedGame,
	})
	s.table = tableService{s: s}
	return s, nil
}

// storedGame makes the games of a stored table from its record.
func (s *Server) storedGame(rec host.TableRecord) (host.NewGame[table.Action, table.View, table.Body], error) {
	m, err := decodeMeta(rec.Meta)
	if err != nil {
		return nil, err
	}
	return s.gameFor(m)
}

// Recover resumes every table of the configured store whose game is not
// over (see host.Host.Recover); the finished ones stay in the store until
// a request reads one back. Call it once before serving. It returns how
// many tables it resumed.
func (s *Server) Recover(ctx context.Context) (int, error) {
	return s.host.Recover(ctx, s.storedGame)
}

// EachTable calls f for every table in memory with its rule preset
// (tenhou_hanchan, tenhou_tonpuu), for an operator's gauges; f must not
// call the server.
func (s *Server) EachTable(f func(rules string, in host.Info)) {
	s.host.Each(func(in host.Info) { f(rulesName(in.Meta), in) })
}

// Host returns the server's host, for in-process tools and tests.
func (s *Server) Host() *Host { return s.host }

// Register adds the services to a gRPC server.
func (s *Server) Register(g grpc.ServiceRegistrar) {
	pb.RegisterTableServiceServer(g, &s.table)
	pb.RegisterJudgeServiceServer(g, &s.judge)
}

// Options are the gRPC server options the services rely on: recovery
// from a handler's panic (outermost, so that it covers the rest) and the
// per-connection rate limit.
func (s *Server) Options() []grpc.ServerOption {
	lim := connLimits{rate: s.cfg.ConnRate, clk: s.cfg.Clock, streams: s.cfg.MaxConnStreams, obs: s.cfg.Observer}
	rec := recovery.WithRecoveryHandlerContext(s.recovered)
	return []grpc.ServerOption{
		grpc.StatsHandler(lim),
		grpc.ChainUnaryInterceptor(recovery.UnaryServerInterceptor(rec), lim.unary),
		grpc.ChainStreamInterceptor(recovery.StreamServerInterceptor(rec), lim.stream),
	}
}

// recovered turns a panic in a handler into INTERNAL for that call alone,
// logged with its stack: the server and every table go on. (A panic in a
// table's own goroutine is the host's: it sets the table aside.)
func (s *Server) recovered(ctx context.Context, p any) error {
	method, _ := grpc.Method(ctx)
	s.cfg.Log.Error("panic in a handler: the call fails with INTERNAL", zap.String("method", method),
		zap.String("panic", fmt.Sprint(p)), zap.ByteString("stack", debug.Stack()))
	return status.Error(codes.Internal, "internal error")
}

// Close stops every table; open streams end with Unavailable.
func (s *Server) Close() { s.host.Close() }

// connLimits rate-limits each connection: a bucket is attached to the
// connection's context when it opens, and every RPC of this API takes a
// token from it.
type connLimits struct {
	rate    host.Rate
	clk     clock.Clock
	streams int // open streams a connection may have
	obs     Observer
}

type connKey struct{}

type connBucket struct {
	mu      sync.Mutex
	b       *host.Bucket
	streams int
}

func (l connLimits) TagConn(ctx context.Context, _ *stats.ConnTagInfo) context.Context {
	return context.WithValue(ctx, connKey{}, &connBucket{b: host.NewBucket(l.rate)})
}

func (connLimits) HandleConn(context.Context, stats.ConnStats)                     {}
func (connLimits) TagRPC(ctx context.Context, _ *stats.RPCTagInfo) context.Context { return ctx }
func (connLimits) HandleRPC(context.Context, stats.RPCStats)                       {}

// servicePrefix selects this API's methods; health checks and reflection
// are not limited.
const servicePrefix = "/mahjong.authority.v1."

func (l connLimits) allow(ctx context.Context, method string) error {
	if !strings.HasPrefix(method, servicePrefix) {
		return nil
	}
	cb, ok := ctx.Value(connKey{}).(*connBucket)
	if !ok {
		return nil
	}
	cb.mu.Lock()
	ok = cb.b.Allow(l.clk.Now())
	cb.mu.Unlock()
	if !ok {
		l.obs.ConnRateLimited()
		return toStatus(fmt.Errorf("%s: %w", method, ErrRateLimited))
	}
	return nil
}

func (l connLimits) unary(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	if err := l.allow(ctx, info.FullMethod); err != nil {
		return nil, err
	}
	return next(ctx, req)
}

func (l connLimits) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	if err := l.allow(ss.Context(), info.FullMethod); err != nil {
		return err
	}
	cb, ok := ss.Context().Value(connKey{}).(*connBucket)
	if !ok || !strings.HasPrefix(info.FullMethod, servicePrefix) {
		return next(srv, ss)
	}
	cb.mu.Lock()
	if cb.streams >= l.streams {
		cb.mu.Unlock()
		return toStatus(fmt.Errorf("%s: %d open: %w", info.FullMethod, l.streams, ErrTooManyStreams))
	}
	cb.streams++
	cb.mu.Unlock()
	defer func() {
		cb.mu.Lock()
		cb.streams--
		cb.mu.Unlock()
	}()
	return next(srv, ss)
}

// randomSeed draws a table seed for a table created without one.
func randomSeed() ([32]byte, error) {
	var s [32]byte
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("seed: %w", err)
	}
	return s, nil
}
