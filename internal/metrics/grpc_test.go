package metrics

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// TestGRPCSeries serves the health service with the interceptors of GRPC
// and checks every series they keep: unary calls that succeed and fail,
// a server stream that sends and then ends by its client's cancellation,
// and the zero series of the methods never called.
func TestGRPCSeries(t *testing.T) {
	m := New(nil)
	g := grpc.NewServer(grpc.ChainUnaryInterceptor(m.GRPC().UnaryServerInterceptor()),
		grpc.ChainStreamInterceptor(m.GRPC().StreamServerInterceptor()))
	hs := health.NewServer()
	healthpb.RegisterHealthServer(g, hs)
	m.GRPC().InitializeMetrics(g)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() { _ = g.Serve(lis) }()
	defer g.Stop()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	defer conn.Close()
	c := healthpb.NewHealthClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	const svc = "grpc.health.v1.Health"
	gm := m.GRPC()
	// Initialised: every method at zero, with every code.
	assert.Equal(t, 0.0, testutil.ToFloat64(gm.started.WithLabelValues("server_stream", svc, "Watch")))
	assert.Equal(t, 0.0, testutil.ToFloat64(gm.handled.WithLabelValues("unary", svc, "List", "DataLoss")))
	assert.Equal(t, 3*17, testutil.CollectAndCount(gm.handled), "3 methods, 17 codes")

	for range 2 {
		_, err := c.Check(ctx, &healthpb.HealthCheckRequest{})
		require.NoError(t, err)
	}
	_, err = c.Check(ctx, &healthpb.HealthCheckRequest{Service: "nope"})
	require.Equal(t, codes.NotFound, status.Code(err))

	wctx, wcancel := context.WithCancel(ctx)
	w, err := c.Watch(wctx, &healthpb.HealthCheckRequest{})
	require.NoError(t, err)
	_, err = w.Recv()
	require.NoError(t, err)
	hs.SetServingStatus("", healthpb.HealthCheckResponse_NOT_SERVING)
	_, err = w.Recv()
	require.NoError(t, err)
	wcancel()

	assert.Equal(t, 3.0, testutil.ToFloat64(gm.started.WithLabelValues("unary", svc, "Check")))
	assert.Equal(t, 2.0, testutil.ToFloat64(gm.handled.WithLabelValues("unary", svc, "Check", "OK")))
	assert.Equal(t, 1.0, testutil.ToFloat64(gm.handled.WithLabelValues("unary", svc, "Check", "NotFound")))
	assert.Equal(t, 3.0, testutil.ToFloat64(gm.received.WithLabelValues("unary", svc, "Check")))
	assert.Equal(t, 2.0, testutil.ToFloat64(gm.sent.WithLabelValues("unary", svc, "Check")), "no response to the failed call")
	assert.Equal(t, 1.0, testutil.ToFloat64(gm.started.WithLabelValues("server_stream", svc, "Watch")))
	assert.Equal(t, 1.0, testutil.ToFloat64(gm.received.WithLabelValues("server_stream", svc, "Watch")))
	assert.Equal(t, 2.0, testutil.ToFloat64(gm.sent.WithLabelValues("server_stream", svc, "Watch")))
	require.Eventually(t, func() bool {
		return testutil.ToFloat64(gm.handled.WithLabelValues("server_stream", svc, "Watch", "Canceled")) == 1
	}, 5*time.Second, 5*time.Millisecond, "the cancelled stream ends Canceled")
	assert.Equal(t, 3*17, testutil.CollectAndCount(gm.handled), "no series beyond the methods'")

	// The latency histogram has one observation per call.
	n, err := testutil.GatherAndCount(m.Registry(), "grpc_server_handling_seconds")
	require.NoError(t, err)
	assert.Equal(t, 3, n, "a histogram per method")
	fams, err := m.Registry().Gather()
	require.NoError(t, err)
	var calls uint64
	for _, f := range fams {
		if f.GetName() == "grpc_server_handling_seconds" {
			for _, s := range f.GetMetric() {
				calls += s.GetHistogram().GetSampleCount()
			}
		}
	}
	assert.Equal(t, uint64(4), calls)
}

// TestGRPCStreamCountingAllocatesNothing: counting a stream's message is
// an atomic add on a series resolved when the stream opened.
func TestGRPCStreamCountingAllocatesNothing(t *testing.T) {
	gm := New(nil).GRPC()
	s := &countedStream{ServerStream: nopStream{}, c: gm.of("/a.B/C", serverStream)}
	if n := testing.AllocsPerRun(100, func() { _ = s.SendMsg(nil) }); n != 0 {
		t.Fatalf("SendMsg allocates %v times, want 0", n)
	}
	assert.Equal(t, 101.0, testutil.ToFloat64(gm.sent.WithLabelValues("server_stream", "a.B", "C")))
}

type nopStream struct{ grpc.ServerStream }

func (nopStream) SendMsg(any) error { return nil }
