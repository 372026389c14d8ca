// Command authority is the mahjong table server: it holds the full secret
// state of the tables of the rule sets it is built with (riichi, Sichuan,
// Chinese Official and classical; see serve) and talks to players, bots and room backends over gRPC
// (TableService, JudgeService, Dou Dizhu's DoudizhuService, the standard health service and server
// reflection).
//
//	authority --listen 127.0.0.1:7400              # tables in memory
//	authority --listen 127.0.0.1:7400 --data DIR   # tables durable in DIR
//
// Everything is embedded: without --data tables live in memory; with it
// every accepted action is in DIR/authority.db (Sichuan's in
// DIR/sichuan.db, Chinese Official's in DIR/mcr.db, classical tables' in
// DIR/classical.db, Dou Dizhu's in
// DIR/doudizhu.db; bbolt) before it is
// acknowledged, and a restart resumes every table not finished.
//
// A finished table stays in memory for --finished-ttl, one that never
// starts for --idle-ttl without a join or a leave; then it leaves memory.
// With --data a finished game stays in the store (for --keep-games, or
// for ever) and is read back when a request names it.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"

	ddzpb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/doudizhu/hosting"
	"github.com/mahjong-authority/authority/internal/doudizhu/service"
	ddztable "github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/gateway"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/metrics"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/classical"
	rsmcr "github.com/mahjong-authority/authority/internal/ruleset/mcr"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/ruleset/sichuan"
	"github.com/mahjong-authority/authority/internal/server"
	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/table"
	tclassical "github.com/mahjong-authority/authority/internal/table/classical"
	tmcr "github.com/mahjong-authority/authority/internal/table/mcr"
	tsichuan "github.com/mahjong-authority/authority/internal/table/sichuan"
	"github.com/mahjong-authority/authority/web"
)

func main() {
	os.Exit(exitCode(run(os.Args[1:], os.Stderr), os.Stderr))
}

// errReported marks an error already shown to the user: the flag package
// prints a bad flag with the usage itself.
var errReported = errors.New("reported")

// exitCode is the process's status for run's error, which it prints
// unless it was shown already.
func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if !errors.Is(err, flag.ErrHelp) && !errors.Is(err, errReported) {
		fmt.Fprintln(stderr, "authority:", err)
	}
	return 1
}

// options are the command line.
type options struct {
	listen   string
	web      webOptions
	metrics  string
	data     string
	devLog   bool
	defaults server.Defaults
	seatRate host.Rate
	connRate host.Rate
	stopWait time.Duration
	limits   limits
	life     lifetimes
	keys     string // --backend-keys
	webhook  webhook
	cluster  clusterOptions
	gc       gcOptions
}

// clusterOptions make the server one node of a cluster (docs/cluster.md).
type clusterOptions struct {
	node      string        // --cluster: this node's id; empty: no cluster
	nats      string        // --nats: the JetStream servers' URLs, comma-separated
	advertise string        // --advertise: where other nodes and clients reach this node
	ttl       time.Duration // --lease-ttl
	replicas  int           // --replicas
	noForward bool          // --no-forward
	peerCA    string        // --peer-ca: the roots of the nodes' certificates (with --tls-cert)
}

// webhook is where the results feed is posted (--webhook).
type webhook struct {
	url, secretFile string
}

// webOptions are the browser's side of the listener.
type webOptions struct {
	corsOrigins []string
	cert, key   string // TLS, both or neither
	clientCA    string // mutual TLS: client certificates of the room service (with cert and key)
}

// lifetimes say how long tables stay in memory and games in the store.
type lifetimes struct {
	finished, idle, keepGames time.Duration
}

// limits bound what clients may open.
type limits struct {
	tables, seatStreams, connStreams int
}

func parse(args []string, stderr io.Writer) (options, error) {
	o := options{defaults: server.StandardDefaults}
	fs := flag.NewFlagSet("authority", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.listen, "listen", "127.0.0.1:7400", "`address` to serve on: gRPC, gRPC-Web, Connect and the web client at /")
	fs.Func("cors-origin", "an `origin` whose pages may call the API (repeat it or separate with commas; * for any; none by default)", func(v string) error {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				o.web.corsOrigins = append(o.web.corsOrigins, s)
			}
		}
		return nil
	})
	fs.StringVar(&o.web.cert, "tls-cert", "", "TLS certificate `file` (PEM; with --tls-key)")
	fs.StringVar(&o.web.key, "tls-key", "", "TLS private key `file` (PEM; with --tls-cert)")
	fs.StringVar(&o.web.clientCA, "client-ca", "", "CA certificates `file` (PEM; with --tls-cert): a client certificate they sign is a room-service credential (mutual TLS), the alternative to an API key")
	fs.StringVar(&o.metrics, "metrics", "", "`address` to serve Prometheus metrics (/metrics) and pprof (/debug/pprof/) on (default: off)")
	fs.StringVar(&o.data, "data", "", "`directory` that keeps tables durable (default: in memory)")
	fs.BoolVar(&o.devLog, "log-dev", false, "human-readable logs instead of JSON")
	fs.DurationVar(&o.defaults.TurnTime, "turn-time", o.defaults.TurnTime, "default time for a turn")
	fs.DurationVar(&o.defaults.ClaimTime, "claim-time", o.defaults.ClaimTime, "default time for a claim window")
	fs.DurationVar(&o.defaults.SpectatorDelay, "spectator-delay", o.defaults.SpectatorDelay, "default delay of spectator streams")
	fs.DurationVar(&o.defaults.DisconnectGrace, "disconnect-grace", o.defaults.DisconnectGrace, "default time a seat may stay disconnected before a bot plays it")
	fs.DurationVar(&o.defaults.RoundPause, "round-pause", o.defaults.RoundPause, "default pause between rounds")
	fs.DurationVar(&o.defaults.ClaimDwell, "claim-dwell", o.defaults.ClaimDwell, "default least pause after every discard, so that claim windows tell nothing")
	fs.IntVar(&o.limits.tables, "max-tables", 10000, "tables not finished the server holds at most (0: no bound)")
	fs.IntVar(&o.limits.seatStreams, "max-seat-streams", 4, "open event streams per seat")
	fs.IntVar(&o.limits.connStreams, "max-conn-streams", 16, "open streams per connection")
	fs.Float64Var(&o.seatRate.PerSecond, "seat-rate", 10, "actions per second a seat may send")
	fs.IntVar(&o.seatRate.Burst, "seat-burst", 20, "actions a seat may send at once")
	fs.Float64Var(&o.connRate.PerSecond, "conn-rate", 50, "requests per second a connection may send")
	fs.IntVar(&o.connRate.Burst, "conn-burst", 100, "requests a connection may send at once")
	fs.DurationVar(&o.stopWait, "stop-wait", 10*time.Second, "how long a graceful stop waits for calls in flight")
	fs.DurationVar(&o.life.finished, "finished-ttl", 10*time.Minute, "how long a finished table stays in memory (0: for ever); with --data its game is read back from the store after that")
	fs.DurationVar(&o.life.idle, "idle-ttl", time.Hour, "how long a table that has not started stays without a join or a leave before it is closed (0: for ever)")
	fs.DurationVar(&o.life.keepGames, "keep-games", 0, "with --data, how long the store keeps a finished game (0: for ever)")
	fs.StringVar(&o.webhook.url, "webhook", "", "also POST every results-feed event to this `URL`, signed with HMAC-SHA-256 (docs/rooms.md)")
	fs.StringVar(&o.webhook.secretFile, "webhook-secret-file", "", "`file` holding the webhook's HMAC secret (with --webhook)")
	fs.StringVar(&o.cluster.node, "cluster", "", "run as the node `NODE_ID` of a cluster that shares its tables through NATS JetStream (with --nats; docs/cluster.md)")
	fs.StringVar(&o.cluster.nats, "nats", "", "the NATS JetStream servers' `URL`s, comma-separated (with --cluster)")
	fs.StringVar(&o.cluster.advertise, "advertise", "", "the `HOST:PORT` other nodes and clients reach this node at (with --cluster; default --listen)")
	fs.DurationVar(&o.cluster.ttl, "lease-ttl", 5*time.Second, "with --cluster, how long a table's lease lives unrenewed: a dead node's tables are taken over about this long after it died")
	fs.IntVar(&o.cluster.replicas, "replicas", 3, "with --cluster, how many JetStream servers keep each table's log and the leases (1 for a single server)")
	fs.StringVar(&o.cluster.peerCA, "peer-ca", "", "with --cluster and --tls-cert, CA certificates `file` (PEM) that sign the other nodes' certificates, for the calls this node forwards to them over TLS (default: the system's roots)")
	fs.BoolVar(&o.cluster.noForward, "no-forward", false, "with --cluster, answer a call for another node's table with TABLE_ELSEWHERE and the owner's address instead of forwarding it")
	fs.StringVar(&o.keys, "backend-keys", "", "JSON `file` of the room service's hashed API keys and ticket keys (docs/rooms.md); read again on SIGHUP. Without it the room service's calls are open to anyone")
	fs.Func("memory-limit", "soft limit of the process's Go memory, like GOMEMLIMIT (`size` such as 1536MiB or 2GiB): the collector works harder as the heap nears it (default: GOMEMLIMIT, or none)", o.gc.setLimit)
	fs.Func("gogc", "the collector's target heap growth in `percent` between collections, like GOGC, or off (with --memory-limit): more is less CPU for a larger heap (default: GOGC, or 100)", o.gc.setPercent)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return o, err
		}
		return o, fmt.Errorf("%w: %w", errReported, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if (o.web.cert == "") != (o.web.key == "") {
		return o, errors.New("--tls-cert and --tls-key go together")
	}
	if o.web.clientCA != "" && o.web.cert == "" {
		return o, errors.New("--client-ca needs --tls-cert and --tls-key")
	}
	if err := checkNotNegative(o); err != nil {
		return o, err
	}
	if (o.webhook.url == "") != (o.webhook.secretFile == "") {
		return o, errors.New("--webhook and --webhook-secret-file go together")
	}
	if err := checkCluster(&o); err != nil {
		return o, err
	}
	if err := o.gc.check(); err != nil {
		return o, err
	}
	return o, nil
}

// checkCluster checks the cluster flags: all or none.
func checkCluster(o *options) error {
	c := &o.cluster
	if c.node == "" {
		if c.nats != "" || c.advertise != "" || c.noForward || c.peerCA != "" {
			return errors.New("--nats, --advertise, --no-forward and --peer-ca need --cluster")
		}
		return nil
	}
	switch {
	case c.nats == "":
		return errors.New("--cluster needs --nats")
	case o.data != "":
		return errors.New("--cluster keeps the tables in JetStream: no --data")
	case c.ttl < 300*time.Millisecond:
		return fmt.Errorf("--lease-ttl %v: at least 300ms", c.ttl)
	case c.replicas < 1:
		return fmt.Errorf("--replicas %d: at least 1", c.replicas)
	case c.peerCA != "" && o.web.cert == "":
		return errors.New("--peer-ca needs --tls-cert and --tls-key: the nodes serve TLS")
	}
	if c.advertise == "" {
		c.advertise = o.listen
	}
	if host, _, err := net.SplitHostPort(c.advertise); err != nil || host == "" || net.ParseIP(host).IsUnspecified() {
		return fmt.Errorf("--advertise %q: a HOST:PORT others can reach (set it when --listen is a wildcard)", c.advertise)
	}
	return nil
}

// checkNotNegative refuses negative timers, rates and limits: the server
// reads them as none (no timer, no claim dwell, no limit), so a typo
// would silently switch a protection off.
func checkNotNegative(o options) error {
	d := o.defaults
	for _, f := range []struct {
		name string
		v    time.Duration
	}{
		{"finished-ttl", o.life.finished}, {"idle-ttl", o.life.idle}, {"keep-games", o.life.keepGames},
		{"turn-time", d.TurnTime}, {"claim-time", d.ClaimTime}, {"spectator-delay", d.SpectatorDelay},
		{"disconnect-grace", d.DisconnectGrace}, {"round-pause", d.RoundPause}, {"claim-dwell", d.ClaimDwell},
		{"stop-wait", o.stopWait},
	} {
		if f.v < 0 {
			return fmt.Errorf("--%s %v: want 0 or more", f.name, f.v)
		}
	}
	for _, f := range []struct {
		name string
		v    float64
	}{
		{"seat-rate", o.seatRate.PerSecond}, {"seat-burst", float64(o.seatRate.Burst)},
		{"conn-rate", o.connRate.PerSecond}, {"conn-burst", float64(o.connRate.Burst)},
		{"max-tables", float64(o.limits.tables)}, {"max-seat-streams", float64(o.limits.seatStreams)},
		{"max-conn-streams", float64(o.limits.connStreams)},
	} {
		if !(f.v >= 0) { // NaN too
			return fmt.Errorf("--%s %v: want 0 or more", f.name, f.v)
		}
	}
	return nil
}

func run(args []string, stderr io.Writer) error {
	o, err := parse(args, stderr)
	if err != nil {
		return err
	}
	var log *zap.Logger
	if o.devLog {
		log, err = zap.NewDevelopment()
	} else {
		log, err = zap.NewProduction()
	}
	if err != nil {
		return fmt.Errorf("logger: %w", err)
	}
	defer log.Sync() //nolint:errcheck // nothing to do about a failed flush at exit
	o.gc.apply(log)

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	// After NotifyContext: the SIGTERM it may bring is then a graceful stop.
	if goRun, err := followGoRun(); err != nil {
		log.Warn("started by go run; it may leave the server running when it is killed", zap.Error(err))
	} else if goRun {
		log.Info("started by go run: the server stops when go run does")
	}
	lis, err := net.Listen("tcp", o.listen)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	var mlis net.Listener
	if o.metrics != "" {
		if mlis, err = net.Listen("tcp", o.metrics); err != nil {
			lis.Close()
			return fmt.Errorf("listen for metrics: %w", err)
		}
	}
	return serve(ctx, lis, mlis, log, o)
}

// Keepalive for mobile clients: the server pings an idle connection every
// 30s so that dead phones and NAT timeouts are noticed, and lets clients
// ping every 10s (also without an open stream) without being cut off.
var (
	keepaliveParams = keepalive.ServerParameters{
		Time:    30 * time.Second,
		Timeout: 10 * time.Second,
	}
	keepalivePolicy = keepalive.EnforcementPolicy{
		MinTime:             10 * time.Second,
		PermitWithoutStream: true,
	}
)

// openStore opens riichi's durable store in dir, creating dir if need be.
// Each rule set keeps its tables in a file of its own, since a store is
// typed by its rule set's actions; riichi's is authority.db, as it was
// before there were other rule sets.
func openStore(dir string, opts ...store.Option) (*store.Bolt[table.Action], error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	return store.Open[table.Action](filepath.Join(dir, "authority.db"), riichi.ActionCodec{}, opts...)
}

// serveMetrics serves the Prometheus exposition and pprof on lis; the
// function it returns stops that.
func serveMetrics(lis net.Listener, m *metrics.Metrics, log *zap.Logger) func() {
	hs := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := hs.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics server", zap.Error(err))
		}
	}()
	log.Info("serving metrics", zap.String("addr", lis.Addr().String()))
	return func() {
		// A profile in progress is cut short: the process is stopping.
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if err := hs.Shutdown(ctx); err != nil {
			hs.Close()
		}
		<-done
	}
}

// openSichuanStore opens Sichuan's durable store, sichuan.db in dir
// (created by openStore).
func openSichuanStore(dir string, opts ...store.Option) (*store.Bolt[tsichuan.Action], error) {
	return store.Open[tsichuan.Action](filepath.Join(dir, "sichuan.db"), sichuan.ActionCodec{}, opts...)
}

// openClassicalStore opens the classical tables' durable store,
// classical.db in dir (created by openStore).
func openClassicalStore(dir string, opts ...store.Option) (*store.Bolt[tclassical.Action], error) {
	return store.Open[tclassical.Action](filepath.Join(dir, "classical.db"), classical.ActionCodec{}, opts...)
}

// openDoudizhuStore opens Dou Dizhu's durable store, doudizhu.db in dir
// (created by openStore).
func openDoudizhuStore(dir string, opts ...store.Option) (*store.Bolt[ddztable.Action], error) {
	return store.Open[ddztable.Action](filepath.Join(dir, "doudizhu.db"), hosting.Codec{}, opts...)
}

// openMCRStore opens the Chinese Official store, mcr.db in dir (created
// by openStore).
func openMCRStore(dir string, opts ...store.Option) (*store.Bolt[tmcr.Action], error) {
	return store.Open[tmcr.Action](filepath.Join(dir, "mcr.db"), rsmcr.ActionCodec{}, opts...)
}

// maxRequest bounds a request's size: the largest legitimate one is a judge
// question of a few hundred bytes.
const maxRequest = 16 << 10

// drain ends, when the server stops, the streams of the services beside
// the API (a health Watch above all, which gRPC's client-side health
// checking keeps open on every connection): only their clients would end
// them, and GracefulStop waits for every stream. The API's own streams
// end when the tables stop.
type drain struct {
	stopping context.Context
	stop     context.CancelFunc // cancels the drained streams, open and to come
}

func newDrain() *drain {
	ctx, cancel := context.WithCancel(context.Background())
	return &drain{stopping: ctx, stop: cancel}
}

func (d *drain) stream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	if strings.HasPrefix(info.FullMethod, "/"+pb.TableService_ServiceDesc.ServiceName+"/") ||
		strings.HasPrefix(info.FullMethod, "/"+ddzpb.DoudizhuService_ServiceDesc.ServiceName+"/") {
		return next(srv, ss)
	}
	ctx, cancel := context.WithCancel(ss.Context())
	defer cancel()
	defer context.AfterFunc(d.stopping, cancel)()
	return next(srv, drainedStream{ServerStream: ss, ctx: ctx})
}

// drainedStream is a server stream with the context drain cancels.
type drainedStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s drainedStream) Context() context.Context { return s.ctx }

// serve runs the server on lis until ctx ends, then stops gracefully: the
// health service says NOT_SERVING, tables stop (ending their streams), and
// calls in flight get stopWait to finish. With mlis it serves the metrics
// and pprof there (closed at the stop).
func serve(ctx context.Context, lis, mlis net.Listener, log *zap.Logger, o options) error {
	var live atomic.Pointer[server.Server] // for scrapes, once it exists
	var liveDdz atomic.Pointer[service.Service]
	var m *metrics.Metrics
	if mlis != nil {
		m = metrics.New(func(f func(string, host.Info)) {
			if s := live.Load(); s != nil {
				s.EachTable(f)
			}
			if d := liveDdz.Load(); d != nil {
				d.Host().Each(func(in host.Info) { f(service.Name, in) })
			}
		})
		stopMetrics := serveMetrics(mlis, m, log)
		defer stopMetrics()
	}
	// In a cluster every rule set's store is JetStream's, shared by the
	// nodes, and the node holds the leases of the tables it runs.
	var cl *clusterNode
	if o.cluster.node != "" {
		var err error
		peer, err := peerTLS(o)
		if err != nil {
			return err
		}
		if cl, err = joinCluster(ctx, o.cluster, peer, log, m); err != nil {
			return err
		}
		defer cl.close()
	}
	// The rule sets this binary hosts, each with its store.
	rc := riichi.Standard()
	if cl != nil {
		st, err := clusterStore(ctx, cl, "riichi", riichi.ActionCodec{})
		if err != nil {
			return err
		}
		rc.Store = st
	}
	if o.data != "" {
		var sopts []store.Option
		if m != nil {
			sopts = append(sopts, store.WithObserver(m.Store()))
		}
		st, err := openStore(o.data, sopts...)
		if err != nil {
			return err
		}
		defer st.Close()
		rc.Store = st
	}
	sq := sichuan.Standard()
	cq := classical.Standard()
	mc := rsmcr.Config{}
	if cl != nil {
		var err error
		if sq.Store, err = clusterStore(ctx, cl, "sichuan", sichuan.ActionCodec{}); err != nil {
			return err
		}
		if cq.Store, err = clusterStore(ctx, cl, "classical", classical.ActionCodec{}); err != nil {
			return err
		}
		if mc.Store, err = clusterStore(ctx, cl, "mcr", rsmcr.ActionCodec{}); err != nil {
			return err
		}
	}
	if o.data != "" {
		var sopts []store.Option
		if m != nil {
			sopts = append(sopts, store.WithObserver(m.Store()))
		}
		st, err := openSichuanStore(o.data, sopts...)
		if err != nil {
			return err
		}
		defer st.Close()
		sq.Store = st
	}
	if o.data != "" {
		var sopts []store.Option
		if m != nil {
			sopts = append(sopts, store.WithObserver(m.Store()))
		}
		cst, err := openClassicalStore(o.data, sopts...)
		if err != nil {
			return err
		}
		defer cst.Close()
		cq.Store = cst
		mst, err := openMCRStore(o.data, sopts...)
		if err != nil {
			return err
		}
		defer mst.Close()
		mc.Store = mst
	}
	cfg := server.Config{RuleSets: []ruleset.RuleSet{riichi.New(rc), sichuan.New(sq), rsmcr.New(mc), classical.New(cq)}}
	if err := roomService(ctx, &cfg, lis, log, o, cl); err != nil {
		return err
	}
	cfg.Log = log
	cfg.SeatRate, cfg.ConnRate = o.seatRate, o.connRate
	cfg.Defaults = o.defaults
	cfg.MaxTables, cfg.MaxSeatStreams, cfg.MaxConnStreams = o.limits.tables, o.limits.seatStreams, o.limits.connStreams
	cfg.FinishedTTL, cfg.IdleTTL, cfg.KeepGames = o.life.finished, o.life.idle, o.life.keepGames
	if m != nil {
		cfg.Observer = m
	}
	if cl != nil {
		cfg.Cluster, cfg.NoForward = cl.node, o.cluster.noForward
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	live.Store(srv)
	// Dou Dizhu is served beside the mahjong rule sets, on a host of its
	// own types that shares the server's hosting (its count of open
	// tables too), with a store of its own.
	dc := service.Config{Hosting: srv.Hosting(), Defaults: o.defaults}
	if cl != nil {
		dc.Cluster = cl.node
		st, err := clusterStore(ctx, cl, service.Name, hosting.Codec{})
		if err != nil {
			srv.Close()
			return err
		}
		dc.Store = st
	}
	if o.data != "" {
		var sopts []store.Option
		if m != nil {
			sopts = append(sopts, store.WithObserver(m.Store()))
		}
		st, err := openDoudizhuStore(o.data, sopts...)
		if err != nil {
			srv.Close()
			return err
		}
		defer st.Close()
		dc.Store = st
	}
	ddz := service.New(dc)
	liveDdz.Store(ddz)
	start := time.Now()
	n, err := srv.Recover(ctx)
	if err == nil {
		var k int
		k, err = ddz.Recover(ctx)
		n += k
	}
	if err != nil {
		ddz.Close()
		srv.Close()
		return err
	}
	if cl != nil {
		// Only now: the hosts that adopt tables exist and hold theirs.
		cl.node.Start()
		log.Info("recovered the tables this node won", zap.String("node", o.cluster.node), zap.Int("tables", n),
			zap.Duration("took", time.Since(start)))
	}
	if o.data != "" {
		log.Info("recovered", zap.String("data", o.data), zap.Int("tables", n), zap.Duration("took", time.Since(start)),
			zap.Duration("keep_games", o.life.keepGames))
	}
	tlsCfg, err := tlsConfig(o.web)
	if err != nil {
		ddz.Close()
		srv.Close()
		return err
	}
	d := newDrain()
	opts := gateway.ServerOptions(tlsCfg != nil)
	if m != nil {
		// First, so that the counts see every refusal and recovered panic.
		opts = append(opts, grpc.ChainUnaryInterceptor(m.GRPC().UnaryServerInterceptor()),
			grpc.ChainStreamInterceptor(m.GRPC().StreamServerInterceptor()))
	}
	opts = append(append(opts, srv.Options()...),
		grpc.KeepaliveParams(keepaliveParams),
		grpc.KeepaliveEnforcementPolicy(keepalivePolicy),
		grpc.MaxRecvMsgSize(maxRequest),
		grpc.ChainStreamInterceptor(d.stream),
	)
	g := grpc.NewServer(opts...)
	srv.Register(g)
	ddz.Register(g)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(g, hs)
	for _, name := range []string{"", pb.TableService_ServiceDesc.ServiceName, pb.JudgeService_ServiceDesc.ServiceName, ddzpb.DoudizhuService_ServiceDesc.ServiceName, pb.RoomService_ServiceDesc.ServiceName} {
		hs.SetServingStatus(name, healthpb.HealthCheckResponse_SERVING)
	}
	reflection.Register(g)
	if m != nil {
		m.GRPC().InitializeMetrics(g)
	}

	// Every protocol on the one address: native gRPC on grpc-go's own
	// transport, gRPC-Web and Connect through the gateway, the web client
	// at /.
	h, err := gateway.Handler(g, gateway.Config{CORSOrigins: o.web.corsOrigins, Page: web.Page()})
	if err != nil {
		srv.Close()
		return err
	}
	hsrv := gateway.Server(h, gateway.Config{ConnContext: srv.ConnContext})
	hsrv.ErrorLog = zap.NewStdLog(log)
	mux := gateway.NewMux(srv.Listener(lis), tlsCfg) // each connection with its limits
	served := make(chan error, 1)
	go func() { served <- mux.Serve(g, hsrv) }()
	log.Info("serving", zap.String("addr", lis.Addr().String()), zap.Bool("tls", o.web.cert != ""),
		zap.Strings("cors_origins", o.web.corsOrigins))
	select {
	case err := <-served:
		ddz.Close()
		srv.Close()
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("stopping")
	hs.Shutdown()
	d.stop()
	ddz.Close()
	srv.Close()
	if cl != nil {
		// The tables stopped here: the other nodes take them at once.
		cl.handover(log)
	}
	mux.Close()
	sctx, cancel := context.WithTimeout(context.Background(), o.stopWait)
	defer cancel()
	grpcStopped := make(chan struct{})
	go func() { g.GracefulStop(); close(grpcStopped) }()
	if err := hsrv.Shutdown(sctx); err != nil {
		log.Warn("calls still running after the stop wait; closing them")
		hsrv.Close()
	}
	select {
	case <-grpcStopped:
	case <-sctx.Done():
		log.Warn("gRPC calls still running after the stop wait; closing them")
		g.Stop()
		<-grpcStopped
	}
	<-served
	log.Info("stopped")
	return nil
}

// tlsConfig is the listener's TLS (nil without --tls-cert): the
// certificate, ALPN for HTTP/2 and HTTP/1.1, and with --client-ca the
// client certificates of mutual TLS.
func tlsConfig(w webOptions) (*tls.Config, error) {
	if w.cert == "" {
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(w.cert, w.key)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert, --tls-key: %w", err)
	}
	var base *tls.Config
	if w.clientCA != "" {
		if base, err = clientCATLS(w.clientCA); err != nil {
			return nil, err
		}
	}
	return gateway.TLSConfig(cert, base), nil
}

// peerTLS is how a node of a cluster dials the others (nil: plaintext):
// when it serves TLS, so do they, and --peer-ca (or the system's roots)
// verifies their certificates for their advertised addresses. A node
// shows no certificate of its own: a client certificate is a room
// service's credential (--client-ca), and the forwarding token, now
// private to the TLS connection, is what proves a node.
func peerTLS(o options) (*tls.Config, error) {
	if o.web.cert == "" {
		return nil, nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if o.cluster.peerCA != "" {
		pem, err := os.ReadFile(o.cluster.peerCA)
		if err != nil {
			return nil, fmt.Errorf("--peer-ca: %w", err)
		}
		cfg.RootCAs = x509.NewCertPool()
		if !cfg.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--peer-ca %s: no PEM certificate in it", o.cluster.peerCA)
		}
	}
	return cfg, nil
}

// clientCATLS is the TLS configuration of mutual TLS: a client may show a
// certificate (players do not), and one it shows must be signed by a CA of
// file; the room service's calls accept a verified one (server.Config
// ClientCerts).
func clientCATLS(file string) (*tls.Config, error) {
	pem, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--client-ca: %w", err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("--client-ca %s: no PEM certificate in it", file)
	}
	return &tls.Config{ClientCAs: pool, ClientAuth: tls.VerifyClientCertIfGiven, MinVersion: tls.VersionTLS12}, nil
}
