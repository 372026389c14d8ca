package metrics

import (
	"context"
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// GRPC counts the calls of a gRPC server by method and code, with a
// latency histogram, in the series of go-grpc-middleware's Prometheus
// provider (grpc_server_started_total, grpc_server_handled_total,
// grpc_server_msg_received_total, grpc_server_msg_sent_total,
// grpc_server_handling_seconds; labels grpc_type, grpc_service,
// grpc_method and grpc_code), which dashboards know. Unlike that provider
// it resolves a method's series once, not at every message: a seat's
// stream sends an event for every action of its table, so the count of a
// message is an atomic add and nothing else.
type GRPC struct {
	started, handled, received, sent *prometheus.CounterVec
	handling                         *prometheus.HistogramVec

	mu      sync.Mutex                           // serialises additions to methods
	methods atomic.Pointer[map[methodKey]*calls] // copied on write: a call reads it without a lock
}

// methodKey names a method's series: its type and full name.
type methodKey struct{ typ, fullMethod string }

// calls are the series of one method.
type calls struct {
	started, received, sent prometheus.Counter
	handling                prometheus.Observer
	handled                 [numCodes]prometheus.Counter // by code
	vec                     *GRPC
	labels                  [3]string // type, service, method
}

// numCodes is the number of gRPC's codes (OK to Unauthenticated).
const numCodes = int(codes.Unauthenticated) + 1

// gRPC's types of call, as the labels say them.
const (
	unary        = "unary"
	clientStream = "client_stream"
	serverStream = "server_stream"
	bidiStream   = "bidi_stream"
)

func newGRPC(buckets []float64) *GRPC {
	names := []string{"grpc_type", "grpc_service", "grpc_method"}
	g := &GRPC{
		started: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "grpc_server_started_total",
			Help: "Total number of RPCs started on the server."}, names),
		handled: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "grpc_server_handled_total",
			Help: "Total number of RPCs completed on the server, regardless of success or failure."}, append(names, "grpc_code")),
		received: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "grpc_server_msg_received_total",
			Help: "Total number of RPC stream messages received on the server."}, names),
		sent: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "grpc_server_msg_sent_total",
			Help: "Total number of gRPC stream messages sent by the server."}, names),
		handling: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "grpc_server_handling_seconds",
			Help: "Histogram of response latency (seconds) of gRPC that had been application-level handled by the server.", Buckets: buckets}, names),
	}
	g.methods.Store(&map[methodKey]*calls{})
	return g
}

// Describe implements prometheus.Collector.
func (g *GRPC) Describe(ch chan<- *prometheus.Desc) {
	g.started.Describe(ch)
	g.handled.Describe(ch)
	g.received.Describe(ch)
	g.sent.Describe(ch)
	g.handling.Describe(ch)
}

// Collect implements prometheus.Collector.
func (g *GRPC) Collect(ch chan<- prometheus.Metric) {
	g.started.Collect(ch)
	g.handled.Collect(ch)
	g.received.Collect(ch)
	g.sent.Collect(ch)
	g.handling.Collect(ch)
}

// InitializeMetrics makes every series of every method the server has
// registered, at zero, so that they exist before the first call.
func (g *GRPC) InitializeMetrics(s *grpc.Server) {
	for service, info := range s.GetServiceInfo() {
		for _, m := range info.Methods {
			g.of("/"+service+"/"+m.Name, callType(m.IsClientStream, m.IsServerStream))
		}
	}
}

// callType is the grpc_type label of a method that streams as said.
func callType(clientStreams, serverStreams bool) string {
	switch {
	case clientStreams && serverStreams:
		return bidiStream
	case clientStreams:
		return clientStream
	case serverStreams:
		return serverStream
	}
	return unary
}

// of returns the series of a method, made at its first call.
func (g *GRPC) of(fullMethod, typ string) *calls {
	key := methodKey{typ, fullMethod}
	if c, ok := (*g.methods.Load())[key]; ok {
		return c
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	old := *g.methods.Load()
	if c, ok := old[key]; ok {
		return c
	}
	service, method := "unknown", "unknown"
	if s, m, ok := strings.Cut(strings.TrimPrefix(fullMethod, "/"), "/"); ok {
		service, method = s, m
	}
	c := &calls{vec: g, labels: [3]string{typ, service, method}}
	c.started = g.started.WithLabelValues(typ, service, method)
	c.received = g.received.WithLabelValues(typ, service, method)
	c.sent = g.sent.WithLabelValues(typ, service, method)
	c.handling = g.handling.WithLabelValues(typ, service, method)
	for code := range numCodes {
		c.handled[code] = g.handled.WithLabelValues(typ, service, method, codes.Code(code).String())
	}
	next := maps.Clone(old)
	next[key] = c
	g.methods.Store(&next)
	return c
}

// done counts a call's end with the code of its error and its duration.
func (c *calls) done(err error, start time.Time) {
	code := codes.OK
	if err != nil {
		s, ok := status.FromError(err)
		if !ok {
			// As grpc-go itself answers: a context's error is its code.
			s = status.FromContextError(err)
		}
		code = s.Code()
	}
	if int(code) < numCodes {
		c.handled[code].Inc()
	} else {
		c.vec.handled.WithLabelValues(c.labels[0], c.labels[1], c.labels[2], code.String()).Inc()
	}
	c.handling.Observe(time.Since(start).Seconds())
}

// UnaryServerInterceptor counts unary calls: started, their request
// received, their response sent (when there is one), handled by code.
func (g *GRPC) UnaryServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
		start := time.Now()
		c := g.of(info.FullMethod, unary)
		c.started.Inc()
		c.received.Inc()
		resp, err := next(ctx, req)
		if err == nil {
			c.sent.Inc()
		}
		c.done(err, start)
		return resp, err
	}
}

// StreamServerInterceptor counts streaming calls and the messages each
// receives and sends.
func (g *GRPC) StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
		start := time.Now()
		c := g.of(info.FullMethod, callType(info.IsClientStream, info.IsServerStream))
		c.started.Inc()
		err := next(srv, &countedStream{ServerStream: ss, c: c})
		c.done(err, start)
		return err
	}
}

// countedStream counts the messages of a stream as they go.
type countedStream struct {
	grpc.ServerStream
	c *calls
}

func (s *countedStream) SendMsg(m any) error {
	err := s.ServerStream.SendMsg(m)
	if err == nil {
		s.c.sent.Inc()
	}
	return err
}

func (s *countedStream) RecvMsg(m any) error {
	err := s.ServerStream.RecvMsg(m)
	if err == nil {
		s.c.received.Inc()
	}
	return err
}
