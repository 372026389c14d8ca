// Package metrics is the authority's Prometheus instrumentation: it
// implements the observers of the server (server.Observer, which holds
// the rule sets' ruleset.Observer and the hosts' host.Observer) and of
// the store (store.Observer) over github.com/prometheus/client_golang,
// counts gRPC calls by method and code in the series of go-grpc-middleware's
// Prometheus provider (GRPC), and serves the exposition with the standard
// net/http/pprof handlers beside it.
//
// The packages it observes know no metrics library: each says what it
// does through a small interface, and this package alone turns that into
// series. Every series an observer touches on the hot path is resolved
// once (at New, or at its first use) so that counting allocates nothing.
package metrics

import (
	"errors"
	"net/http"
	"net/http/pprof"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/server"
)

// namespace prefixes the authority's own series.
const namespace = "authority"

// Metrics holds the registry and every series of one server.
type Metrics struct {
	reg  *prometheus.Registry
	grpc *GRPC

	actions      *prometheus.CounterVec
	kindsMu      sync.RWMutex
	kinds        map[string]*kindCells // the actions_total series of each action kind
	streams      [2]prometheus.Gauge   // seat, spectator
	fanout       prometheus.Histogram
	muxActs      prometheus.Histogram
	judge        prometheus.Histogram
	windows      prometheus.Counter
	dwell        prometheus.Histogram
	rounds       prometheus.Counter
	games        prometheus.Counter
	snapshots    prometheus.Histogram
	recoveries   prometheus.Counter
	recovered    prometheus.Counter
	recoverySecs prometheus.Gauge
	setAside     [3]prometheus.Counter // by host.SetAside
	rateLimited  [2]prometheus.Counter // seat, connection
	appends      prometheus.Histogram
	commits      prometheus.Histogram
	batches      prometheus.Histogram
}

// Tables lists the tables in memory for the gauges of tables and seats,
// as server.Server.EachTable does.
type Tables func(f func(rules string, in host.Info))

// New makes the metrics of one server and registers them, with the Go
// runtime's and the process's collectors, in a registry of their own.
// tables, when not nil, is read at every scrape for the gauges of tables
// by rule set and state and of seats.
func New(tables Tables) *Metrics {
	m := &Metrics{
		reg:   prometheus.NewRegistry(),
		kinds: map[string]*kindCells{},
		grpc:  newGRPC([]float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10}),
	}
	f := factory{m.reg}
	m.actions = f.counterVec("actions_total", "Actions applied (result ok) or refused, by action type, by whom (player, bot, timeout, system) and result.", "type", "by", "result")
	streams := f.gaugeVec("streams_open", "Open event streams, of seats and of spectators.", "kind")
	m.streams = [2]prometheus.Gauge{streams.WithLabelValues("seat"), streams.WithLabelValues("spectator")}
	m.fanout = f.histogram("event_fanout_seconds", "From an event's logging to its sending on a seat's stream (events logged while the stream was open).",
		[]float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1})
	m.muxActs = f.histogram("multiplex_act_seconds", "A Multiplex stream's action, from its request read to its answer put in the stream's next message: the server's share of what a client waits.",
		[]float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5})
	m.judge = f.histogram("judge_seconds", "The engine's step of a discard: the judge's work on it (waits, claim offers, the next turn's options).",
		prometheus.ExponentialBuckets(1e-6, 2, 16))
	m.windows = f.counter("claim_windows_total", "Steps that opened a claim window (a discard, a kan that may be robbed).")
	m.dwell = f.histogram("claim_dwell_seconds", "How long each claim dwell held a table's events back.",
		[]float64{.1, .25, .5, .75, 1, 1.1, 1.25, 1.5, 2, 3, 5, 10, 30})
	m.rounds = f.counter("rounds_finished_total", "Rounds that ended.")
	m.games = f.counter("games_finished_total", "Games that ended.")
	m.snapshots = f.histogram("snapshot_bytes", "Size of each table snapshot stored (state and events).", prometheus.ExponentialBuckets(256, 2, 12))
	m.recoveries = f.counter("recoveries_total", "Recoveries of the stored tables (one per start with --data).")
	m.recovered = f.counter("recovered_tables_total", "Tables resumed by recoveries.")
	m.recoverySecs = f.gauge("recovery_seconds", "How long the latest recovery took.")
	aside := f.counterVec("tables_set_aside_total", "Tables taken out of play: damaged in the store at recovery, or their goroutine panicked.", "reason")
	m.setAside = [3]prometheus.Counter{nil, aside.WithLabelValues(host.SetAsideDamaged.String()), aside.WithLabelValues(host.SetAsidePanic.String())}
	limited := f.counterVec("rate_limited_total", "Requests refused by a rate limit, per seat (actions) or per connection (every call).", "scope")
	m.rateLimited = [2]prometheus.Counter{limited.WithLabelValues("seat"), limited.WithLabelValues("connection")}
	storeBuckets := []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5}
	m.appends = f.histogram("store_append_seconds", "An Append to the store, from the call until its entries are durable (queue, write and fsync).", storeBuckets)
	m.commits = f.histogram("store_commit_seconds", "One group commit of the store (a bbolt transaction of its writer, or a write of the log by its appender): the writes and the fsyncs.", storeBuckets)
	m.batches = f.histogram("store_commit_batch_size", "Requests committed together in one transaction (group commit).", prometheus.ExponentialBuckets(1, 2, 9))
	m.reg.MustRegister(m.grpc, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	if tables != nil {
		m.reg.MustRegister(newTableCollector(tables))
	}
	return m
}

// Registry is where the metrics are registered; it may take more.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// GRPC counts the calls of a gRPC server by method and code, with
// latency histograms: its interceptors go first among the server's
// options (so that they see every refusal and recovered panic), and
// InitializeMetrics is called once the services are registered.
func (m *Metrics) GRPC() *GRPC { return m.grpc }

// Handler serves the Prometheus exposition at /metrics and the standard
// pprof handlers under /debug/pprof/.
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg}))
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// The observer of the server and the host.

var _ server.Observer = (*Metrics)(nil)

const (
	numActors  = 5 // host.Actor values
	numResults = 6
)

// kindCells are the actions_total series of one action kind, resolved at
// their first use.
type kindCells [numActors][numResults]atomic.Pointer[prometheus.Counter]

// result classes an action's outcome for the actions_total series.
type result uint8

const (
	resultOK result = iota
	resultRefused
	resultMalformed
	resultStale
	resultRateLimited
	resultUnavailable
)

var resultNames = [numResults]string{"ok", "refused", "malformed", "stale", "rate_limited", "unavailable"}

func classify(err error) result {
	switch {
	case err == nil:
		return resultOK
	case errors.Is(err, host.ErrRateLimited):
		return resultRateLimited
	case errors.Is(err, host.ErrStaleSeq), errors.Is(err, host.ErrSeqAhead):
		return resultStale
	case errors.Is(err, host.ErrUnavailable):
		return resultUnavailable
	case errors.Is(err, host.ErrBadRequest), errors.Is(err, ruleset.ErrMalformed), errors.Is(err, ruleset.ErrBadTile), errors.Is(err, host.ErrRequestIDReused):
		return resultMalformed
	}
	return resultRefused
}

// Acted counts an action in actions_total (and a seat's rate-limit
// refusal in rate_limited_total).
func (m *Metrics) Acted(by host.Actor, kind string, err error) {
	r := classify(err)
	if r == resultRateLimited {
		m.rateLimited[0].Inc()
	}
	if int(by) >= numActors {
		by = 0
	}
	m.kindsMu.RLock()
	cells := m.kinds[kind]
	m.kindsMu.RUnlock()
	if cells == nil {
		// The first action of this kind: a few kinds per rule set.
		m.kindsMu.Lock()
		if cells = m.kinds[kind]; cells == nil {
			cells = &kindCells{}
			m.kinds[kind] = cells
		}
		m.kindsMu.Unlock()
	}
	cell := &cells[by][r]
	c := cell.Load()
	if c == nil {
		// First use of this series: resolved once, then shared.
		cc := m.actions.WithLabelValues(kind, by.String(), resultNames[r])
		cell.CompareAndSwap(nil, &cc)
		c = cell.Load()
	}
	(*c).Inc()
}

func (m *Metrics) StreamOpened(spectator bool) { m.streams[b2i(spectator)].Inc() }
func (m *Metrics) StreamClosed(spectator bool) { m.streams[b2i(spectator)].Dec() }
func (m *Metrics) EventSent(d time.Duration)   { m.fanout.Observe(d.Seconds()) }
func (m *Metrics) MuxAnswered(d time.Duration) { m.muxActs.Observe(d.Seconds()) }
func (m *Metrics) ClaimWindow()                { m.windows.Inc() }
func (m *Metrics) Dwell(d time.Duration)       { m.dwell.Observe(d.Seconds()) }
func (m *Metrics) GameOver()                   { m.games.Inc() }
func (m *Metrics) Snapshot(bytes int)          { m.snapshots.Observe(float64(bytes)) }
func (m *Metrics) Judged(d time.Duration)      { m.judge.Observe(d.Seconds()) }
func (m *Metrics) RoundEnded()                 { m.rounds.Inc() }
func (m *Metrics) ConnRateLimited()            { m.rateLimited[1].Inc() }

func (m *Metrics) Recovered(tables int, took time.Duration) {
	m.recoveries.Inc()
	m.recovered.Add(float64(tables))
	m.recoverySecs.Set(took.Seconds())
}

func (m *Metrics) TableSetAside(why host.SetAside) {
	if int(why) < len(m.setAside) && why != 0 {
		m.setAside[why].Inc()
	}
}

// The observer of the store.

// Store is the store's observer (store.Observer).
func (m *Metrics) Store() StoreObserver { return StoreObserver{m} }

// StoreObserver counts the store's appends and commits.
type StoreObserver struct{ m *Metrics }

func (o StoreObserver) Appended(d time.Duration) { o.m.appends.Observe(d.Seconds()) }

func (o StoreObserver) Committed(d time.Duration, requests int) {
	o.m.commits.Observe(d.Seconds())
	o.m.batches.Observe(float64(requests))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// factory makes series in the authority's namespace and registers them.
type factory struct{ reg *prometheus.Registry }

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Namespace: namespace, Name: name, Help: help})
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: namespace, Name: name, Help: help}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help})
	f.reg.MustRegister(g)
	return g
}

func (f factory) gaugeVec(name, help string, labels ...string) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Namespace: namespace, Name: name, Help: help}, labels)
	f.reg.MustRegister(g)
	return g
}

func (f factory) histogram(name, help string, buckets []float64) prometheus.Histogram {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: namespace, Name: name, Help: help, Buckets: buckets})
	f.reg.MustRegister(h)
	return h
}

// tableCollector reads the tables in memory at every scrape: tables by
// rule set and state, and their seats by who plays them.
type tableCollector struct {
	tables      Tables
	tablesDesc  *prometheus.Desc
	seatsDesc   *prometheus.Desc
	stateLabels []string
}

func newTableCollector(tables Tables) *tableCollector {
	return &tableCollector{
		tables: tables,
		tablesDesc: prometheus.NewDesc(namespace+"_tables", "Tables in memory, by rule set and state.",
			[]string{"rule_set", "state"}, nil),
		seatsDesc: prometheus.NewDesc(namespace+"_seats", "Seats of the tables in memory that are playing: connected (a player with an open stream), disconnected (a player without one, within the grace) or bot.",
			[]string{"rule_set", "kind"}, nil),
		stateLabels: []string{host.Waiting.String(), host.Playing.String(), host.Finished.String()},
	}
}

func (c *tableCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- c.tablesDesc
	ch <- c.seatsDesc
}

func (c *tableCollector) Collect(ch chan<- prometheus.Metric) {
	type counts struct {
		states                       [4]int
		connected, disconnected, bot int
	}
	by := map[string]*counts{}
	c.tables(func(rules string, in host.Info) {
		n := by[rules]
		if n == nil {
			n = &counts{}
			by[rules] = n
		}
		if int(in.State) < len(n.states) {
			n.states[in.State]++
		}
		if in.State != host.Playing {
			return
		}
		for _, s := range in.Seats {
			switch {
			case s.Bot:
				n.bot++
			case s.Connected:
				n.connected++
			default:
				n.disconnected++
			}
		}
	})
	for rules, n := range by {
		for i, st := range c.stateLabels {
			ch <- prometheus.MustNewConstMetric(c.tablesDesc, prometheus.GaugeValue, float64(n.states[i+1]), rules, st)
		}
		ch <- prometheus.MustNewConstMetric(c.seatsDesc, prometheus.GaugeValue, float64(n.connected), rules, "connected")
		ch <- prometheus.MustNewConstMetric(c.seatsDesc, prometheus.GaugeValue, float64(n.disconnected), rules, "disconnected")
		ch <- prometheus.MustNewConstMetric(c.seatsDesc, prometheus.GaugeValue, float64(n.bot), rules, "bot")
	}
}
