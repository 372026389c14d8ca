// Package server is the gRPC face of the authority: it checks requests,
// hands them to the rule set a table plays (package ruleset: each rule set
// converts between the wire and its own types and runs its tables on a
// host of its own), and maps every domain error to a status code with a
// machine-readable reason. It knows no game: the authority binary hands
// it the rule sets it hosts. The binary and in-process tools share it.
package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/grpc-ecosystem/go-grpc-middleware/v2/interceptors/recovery"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/peer"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/backend"
	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/cluster"
	"github.com/mahjong-authority/authority/internal/feed"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

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

// Config configures a Server. RuleSets are required.
type Config struct {
	Log   *zap.Logger
	Clock clock.Clock
	// RuleSets are the games the server hosts, each on a host of its own
	// (package ruleset) with its own store; at most one per pb.RuleSet.
	RuleSets []ruleset.RuleSet
	SeatRate host.Rate // per seat, on Act
	ConnRate host.Rate // per connection, on every table or judge RPC
	Defaults Defaults
	// MaxTables bounds the tables not finished, of all rule sets
	// together (0: no bound).
	MaxTables int
	// MaxSeatStreams bounds one seat's open streams (default 4);
	// MaxConnStreams one connection's (default 16).
	MaxSeatStreams, MaxConnStreams int
	// FinishedTTL is how long a finished table stays in memory, IdleTTL
	// how long one that has not started stays without a seat taken or
	// given up (zero: for ever). A finished table that left memory is
	// read back from its rule set's store for GetTable, ExportGame and
	// streams, for as long as the store keeps it: KeepGames after its
	// game ended (zero: for ever). See host.Config.
	FinishedTTL, IdleTTL, KeepGames time.Duration
	// Keys, when they hold a key file, make the room service's calls
	// need an API key (docs/rooms.md); nil leaves the server open.
	Keys *backend.Keys
	// ClientCerts: a client certificate that the TLS layer verified
	// (authority --client-ca) is a room-service credential too, the
	// alternative to an API key; with it room-service calls need one or
	// the other even without keys.
	ClientCerts bool
	// Feed is the results feed (default: one in memory). The server
	// closes it.
	Feed *feed.Feed
	// Observer is told what the server does, for metrics (package
	// metrics); default nothing.
	Observer Observer
	// Cluster, when set, makes the server one node of a cluster that
	// shares its stores (package cluster, docs/cluster.md): its hosts
	// lease their tables, and calls for a table another node owns are
	// forwarded there (or refused with TABLE_ELSEWHERE when NoForward).
	Cluster *cluster.Node
	// NoForward refuses the calls for another node's table with the
	// owner's address instead of forwarding them.
	NoForward bool
}

// Observer is told what the server does, for an operator's metrics: the
// host's hooks and the adapter's own. Like the host's, its methods run
// on the hot path: quick, concurrent, without allocation.
type Observer interface {
	ruleset.Observer
	// ConnRateLimited is told of every call refused by the per-connection
	// rate limit (the per-seat one is an Acted refusal).
	ConnRateLimited()
	// MuxAnswered is told, for each action of a Multiplex stream, how long
	// it took from its request read to its answer put in the stream's
	// outbox: the server's share of the latency a client sees.
	MuxAnswered(took time.Duration)
}

type nopObserver struct{ ruleset.NopObserver }

func (nopObserver) ConnRateLimited()          {}
func (nopObserver) MuxAnswered(time.Duration) {}

// hosted is a rule set the server hosts, with its tables.
type hosted struct {
	rs     ruleset.RuleSet
	tables ruleset.Tables
}

// Server implements TableService and JudgeService.
type Server struct {
	cfg   Config
	hs    ruleset.Hosting
	sets  []hosted // in the order of Config.RuleSets
	table tableService
	judge judgeService
	room  roomService
	feed  *feed.Feed
	rooms rooms
	lim   connLimits // of every call, and of a Multiplex stream's items

	workOnce sync.Once
	work     *workers // of the unary calls, from Options until Close
}

// New returns a Server; Close stops its tables.
func New(cfg Config) (*Server, error) {
	if len(cfg.RuleSets) == 0 {
		return nil, fmt.Errorf("server: no rule sets")
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
	s := &Server{cfg: cfg, feed: cfg.Feed, rooms: rooms{open: map[string]int{}, owner: map[string]string{}}}
	if s.feed == nil {
		s.feed = feed.Memory()
	}
	s.hs = ruleset.Hosting{
		Lifecycle: s.life,
		Clock:     cfg.Clock, Log: cfg.Log, SeatRate: cfg.SeatRate,
		MaxTables: cfg.MaxTables, Count: &host.Count{}, MaxSeatStreams: cfg.MaxSeatStreams,
		Observer:    cfg.Observer,
		FinishedTTL: cfg.FinishedTTL, IdleTTL: cfg.IdleTTL, KeepGames: cfg.KeepGames,
	}
	if c := cfg.Cluster; c != nil {
		s.hs.Owner = func(ruleSet string, a ruleset.Adopter) host.Owner { return c.Own(ruleSet, a) }
	}
	seen := map[pb.RuleSet]bool{}
	for _, rs := range cfg.RuleSets {
		if seen[rs.ID()] || rs.ID() == pb.RuleSet_RULE_SET_UNSPECIFIED {
			s.Close()
			return nil, fmt.Errorf("server: rule set %v twice or unnamed", rs.ID())
		}
		seen[rs.ID()] = true
		t, err := rs.Open(s.hs)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("server: rule set %v: %w", rs.ID(), err)
		}
		s.sets = append(s.sets, hosted{rs: rs, tables: t})
	}
	s.lim = connLimits{clk: cfg.Clock, streams: cfg.MaxConnStreams, obs: cfg.Observer, cluster: cfg.Cluster, log: cfg.Log, unlimited: new(sync.Once)}
	s.table = tableService{s: s}
	s.room = roomService{s: s}
	return s, nil
}

// ruleSet returns the hosted rule set id names; unspecified is riichi.
func (s *Server) ruleSet(id pb.RuleSet) (*hosted, error) {
	if id == pb.RuleSet_RULE_SET_UNSPECIFIED {
		id = pb.RuleSet_RULE_SET_RIICHI
	}
	for i := range s.sets {
		if s.sets[i].rs.ID() == id {
			return &s.sets[i], nil
		}
	}
	return nil, fmt.Errorf("settings.rule_set: %v: %w", id, ruleset.ErrUnknownRuleSet)
}

// Tables returns the tables of a rule set the server hosts (nil if it
// hosts none), for in-process tools and tests.
func (s *Server) Tables(id pb.RuleSet) ruleset.Tables {
	h, err := s.ruleSet(id)
	if err != nil {
		return nil
	}
	return h.tables
}

// route runs f on the rule set whose host holds table id: the one that
// knows it without reading its store, else each in turn until one finds
// it (a finished table read back from its store). With one rule set it is
// a plain call.
func route[R any](s *Server, id string, f func(t ruleset.Tables) (R, error)) (R, error) {
	if len(s.sets) == 1 {
		return f(s.sets[0].tables)
	}
	for _, h := range s.sets {
		if h.tables.Holds(id) {
			return f(h.tables)
		}
	}
	var r R
	var err error
	for _, h := range s.sets {
		if r, err = f(h.tables); !errors.Is(err, host.ErrNotFound) {
			return r, err
		}
	}
	return r, err
}

// holds reports whether a rule set's host holds table id in memory.
func (s *Server) holds(id string) bool {
	for _, h := range s.sets {
		if h.tables.Holds(id) {
			return true
		}
	}
	return false
}

// Recover resumes every table of every rule set's store whose game is not
// over (see host.Host.Recover); the finished ones stay in the stores until
// a request reads one back. Call it once before serving. It returns how
// many tables it resumed.
func (s *Server) Recover(ctx context.Context) (int, error) {
	n := 0
	for _, h := range s.sets {
		k, err := h.tables.Recover(ctx)
		n += k
		if err != nil {
			return n, fmt.Errorf("%s: %w", ruleset.Name(h.rs.ID()), err)
		}
	}
	s.recount()
	return n, nil
}

// Keys are the room service's keys the server holds (nil: none), to
// reload them.
func (s *Server) Keys() *backend.Keys { return s.cfg.Keys }

// FeedLast is the results feed's newest cursor.
func (s *Server) FeedLast() (uint64, error) { return s.feed.Last() }

// EachTable calls f for every table in memory with the name of its rule
// set (riichi, sichuan), for an operator's gauges.
func (s *Server) EachTable(f func(ruleSet string, in host.Info)) {
	for _, h := range s.sets {
		name := ruleset.Name(h.rs.ID())
		h.tables.Each(func(in host.Info) { f(name, in) })
	}
}

// Register adds the services to a gRPC server.
func (s *Server) Register(g grpc.ServiceRegistrar) {
	pb.RegisterTableServiceServer(g, &s.table)
	pb.RegisterJudgeServiceServer(g, &s.judge)
	pb.RegisterRoomServiceServer(g, &s.room)
}

// Options are the gRPC server options the services rely on: recovery
// from a handler's panic (outermost, so that it covers the rest), the
// per-connection rate limit, then the room service's authentication; a
// unary call's handler then runs on one of the server's workers (see
// workers), which Close stops. The per-connection limits need each
// connection's bucket: serve from Listener (grpc-go's own transport) or
// give ConnContext to the http.Server (ServeHTTP).
func (s *Server) Options() []grpc.ServerOption {
	lim := s.lim
	rec := recovery.WithRecoveryHandlerContext(s.recovered)
	stream := []grpc.StreamServerInterceptor{recovery.StreamServerInterceptor(rec), lim.stream}
	s.workOnce.Do(func() { s.work = newWorkers(numWorkers()) })
	u := &unaryChain{s: s, work: s.work} // no workers after Close: the calls run on their own goroutines
	if c := s.cfg.Cluster; c != nil {
		// After the limits, so that a forwarded call counts on the
		// connection it came in on; before authentication, which the
		// owner does (the credentials travel with the call).
		r := cluster.Routing{NoForward: s.cfg.NoForward, Elsewhere: elsewhere, Methods: servicePrefixes, Held: s.holds}
		u.cluster = c.UnaryInterceptor(r)
		stream = append(stream, c.StreamInterceptor(r))
	}
	stream = append(stream, s.authStream())
	return []grpc.ServerOption{
		grpc.ChainUnaryInterceptor(u.intercept),
		grpc.ChainStreamInterceptor(stream...),
	}
}

// unaryChain is the unary calls' interceptors in one: recovery, the
// connection's limit, the cluster's routing, authentication, the workers,
// in this order. Why one: grpc-go makes a closure per interceptor of a
// chain for every call (three an Act with four).
type unaryChain struct {
	s       *Server
	work    *workers                    // nil: the handler runs on the call's goroutine
	cluster grpc.UnaryServerInterceptor // nil: no cluster
}

func (u *unaryChain) intercept(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, u.s.recovered(ctx, p)
		}
	}()
	if err := u.s.lim.allow(ctx, info.FullMethod); err != nil {
		return nil, err
	}
	if u.cluster != nil {
		return u.cluster(ctx, req, info, func(ctx context.Context, req any) (any, error) {
			return u.inner(ctx, req, info, next)
		})
	}
	return u.inner(ctx, req, info, next)
}

// inner authenticates the call and hands it to a worker.
func (u *unaryChain) inner(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	ctx, err := u.s.authenticate(ctx)
	if err != nil {
		return nil, err
	}
	if u.work == nil {
		return next(ctx, req)
	}
	return u.work.unary(ctx, req, info, next)
}

// Listener wraps lis so that every connection it accepts carries its
// own rate bucket and count of open streams, which each call finds
// through its peer's address: serve grpc-go's own transport from it
// (directly, or from under a listener that keeps the connection's
// RemoteAddr, as TLS and the gateway's Mux do).
//
// Why not a stats handler's TagConn, which sees every connection: with
// any stats handler installed grpc-go builds a stats event for every
// call's begin, headers and end and every message sent or received,
// about 27 allocations of the server's 380 an action.
func (s *Server) Listener(lis net.Listener) net.Listener {
	return limitedListener{Listener: lis, rate: s.cfg.ConnRate}
}

// ConnContext attaches the per-connection limits to a connection that an
// http.Server accepts (its ConnContext): gRPC served through ServeHTTP,
// as the gateway does for every protocol, has no peer address of
// Listener's. A connection that came through Listener keeps its bucket.
func (s *Server) ConnContext(ctx context.Context, c net.Conn) context.Context {
	if a, ok := c.RemoteAddr().(*connAddr); ok {
		return context.WithValue(ctx, connKey{}, a.cb)
	}
	return context.WithValue(ctx, connKey{}, newConnBucket(s.cfg.ConnRate))
}

// recovered turns a panic in a handler into INTERNAL for that call alone,
// logged with its stack: the server and every table go on. (A panic in a
// table's own goroutine is the host's: it sets the table aside.)
func (s *Server) recovered(ctx context.Context, p any) error {
	method, _ := grpc.Method(ctx)
	stack := debug.Stack()
	if w, ok := p.(*handlerPanic); ok {
		// Raised again from a worker: its stack is the handler's.
		p, stack = w.value, w.stack
	}
	s.cfg.Log.Error("panic in a handler: the call fails with INTERNAL", zap.String("method", method),
		zap.String("panic", fmt.Sprint(p)), zap.ByteString("stack", stack))
	return status.Error(codes.Internal, "internal error")
}

// Close stops every table; open streams end with Unavailable.
func (s *Server) Close() {
	for _, h := range s.sets {
		h.tables.Close()
	}
	if s.feed != nil {
		_ = s.feed.Close() // a durable feed has every event on disk already
	}
	s.workOnce.Do(func() {}) // no workers from now on
	if s.work != nil {
		s.work.close()
	}
}

// connLimits rate-limits each connection: a bucket is attached to the
// connection when it opens (Listener, ConnContext), and every RPC of this
// API takes a token from it.
type connLimits struct {
	clk     clock.Clock
	streams int // open streams a connection may have
	obs     Observer
	cluster *cluster.Node // nil: no call is forwarded
	// A call on a connection without its limits (served from a listener
	// Listener did not wrap) is logged once: it would otherwise be
	// unlimited without a word.
	log       *zap.Logger
	unlimited *sync.Once
}

// warnUnlimited logs, once, a call on a connection that has no limits.
func (l connLimits) warnUnlimited(method string) {
	l.unlimited.Do(func() {
		l.log.Warn("a call on a connection without per-connection limits: serve gRPC from Server.Listener (or an http.Server with Server.ConnContext)",
			zap.String("method", method))
	})
}

type connKey struct{}

type connBucket struct {
	mu      sync.Mutex
	b       *host.Bucket
	streams int
}

func newConnBucket(r host.Rate) *connBucket { return &connBucket{b: host.NewBucket(r)} }

// limitedListener gives each connection it accepts a bucket (Listener).
type limitedListener struct {
	net.Listener
	rate host.Rate
}

func (l limitedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &limitedConn{Conn: c, addr: &connAddr{Addr: c.RemoteAddr(), cb: newConnBucket(l.rate)}}, nil
}

// limitedConn is a connection whose remote address carries its bucket:
// grpc-go puts the address in every call's peer.Peer.
type limitedConn struct {
	net.Conn
	addr *connAddr
}

func (c *limitedConn) RemoteAddr() net.Addr { return c.addr }

// connAddr is the connection's remote address with its bucket; it prints
// and compares as the address.
type connAddr struct {
	net.Addr
	cb *connBucket
}

// bucket is the bucket of the connection ctx's call came on: its peer's
// address (Listener) or the http.Server's connection (ConnContext).
func bucket(ctx context.Context) (*connBucket, bool) {
	if p, ok := peer.FromContext(ctx); ok {
		if a, ok := p.Addr.(*connAddr); ok {
			return a.cb, true
		}
	}
	cb, ok := ctx.Value(connKey{}).(*connBucket)
	return cb, ok
}

// servicePrefixes select the API's methods, of every game; health checks
// and reflection are not limited.
var servicePrefixes = []string{"/mahjong.authority.v1.", "/doudizhu.authority.v1."}

func limited(method string) bool {
	for _, p := range servicePrefixes {
		if strings.HasPrefix(method, p) {
			return true
		}
	}
	return false
}

func (l connLimits) allow(ctx context.Context, method string) error {
	if !limited(method) || l.cluster.Forwarded(ctx) {
		// A forwarded call was counted on the node it came in on.
		return nil
	}
	cb, ok := bucket(ctx)
	if !ok {
		l.warnUnlimited(method)
		return nil
	}
	cb.mu.Lock()
	wait := cb.b.Take(l.clk.Now())
	cb.mu.Unlock()
	if wait > 0 {
		l.obs.ConnRateLimited()
		return toStatus(&connRateError{method: method, wait: wait})
	}
	return nil
}

// connRateError is a call refused by its connection's rate limit: it
// matches ErrRateLimited and carries the wait (host.RateLimitedError).
type connRateError struct {
	method string
	wait   time.Duration
}

func (e *connRateError) Error() string {
	return fmt.Sprintf("%s: %v: retry in %v", e.method, ErrRateLimited, e.wait)
}

func (e *connRateError) Unwrap() []error {
	return []error{ErrRateLimited, &host.RateLimitedError{Wait: e.wait}}
}

func (l connLimits) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	if err := l.allow(ss.Context(), info.FullMethod); err != nil {
		return err
	}
	release, err := l.open(ss.Context(), info.FullMethod)
	if err != nil {
		return err
	}
	defer release()
	return next(srv, ss)
}

// open counts an open stream (or a Multiplex stream's follow) on its
// connection, refused past the bound; release uncounts it.
func (l connLimits) open(ctx context.Context, method string) (release func(), err error) {
	cb, ok := bucket(ctx)
	if !ok || !limited(method) || l.cluster.Forwarded(ctx) {
		return func() {}, nil
	}
	cb.mu.Lock()
	if cb.streams >= l.streams {
		cb.mu.Unlock()
		return nil, toStatus(fmt.Errorf("%s: %d open: %w", method, l.streams, ErrTooManyStreams))
	}
	cb.streams++
	cb.mu.Unlock()
	return func() {
		cb.mu.Lock()
		cb.streams--
		cb.mu.Unlock()
	}, nil
}

// randomSeed draws a table seed for a table created without one.
func randomSeed() ([32]byte, error) {
	var s [32]byte
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("seed: %w", err)
	}
	return s, nil
}
