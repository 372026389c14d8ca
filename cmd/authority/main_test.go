package main

import (
	"context"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
	"go.uber.org/zap/zaptest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestParse(t *testing.T) {
	o, err := parse([]string{"--listen", "127.0.0.1:0", "--turn-time", "5s"}, io.Discard)
	if err != nil || o.listen != "127.0.0.1:0" || o.defaults.TurnTime != 5*time.Second {
		t.Fatalf("parse = %+v, %v", o, err)
	}
	if o.defaults.ClaimTime == 0 || o.connRate.Burst == 0 {
		t.Fatalf("parse left defaults unset: %+v", o)
	}
	if _, err := parse([]string{"extra"}, io.Discard); err == nil {
		t.Fatal("parse accepted a stray argument")
	}
	if o.life.finished != 10*time.Minute || o.life.idle != time.Hour || o.life.keepGames != 0 {
		t.Fatalf("lifetimes by default %+v, want 10m, 1h, for ever", o.life)
	}
	o, err = parse([]string{"--finished-ttl", "1m", "--idle-ttl", "0", "--keep-games", "720h"}, io.Discard)
	if err != nil || o.life != (lifetimes{finished: time.Minute, idle: 0, keepGames: 720 * time.Hour}) {
		t.Fatalf("parse of lifetimes = %+v, %v", o.life, err)
	}
	for _, flag := range []string{"--finished-ttl", "--idle-ttl", "--keep-games"} {
		if _, err := parse([]string{flag, "-1s"}, io.Discard); err == nil {
			t.Errorf("parse accepted %s -1s", flag)
		}
	}
	if err := run([]string{"--listen", "256.0.0.1:1"}, io.Discard); err == nil {
		t.Fatal("run listened on a bad address")
	}
}

// TestBadFlagOnce shows a bad flag once, with the usage, and a bad value
// (which the flag package does not print) once too.
func TestBadFlagOnce(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--no-such-flag"}, "-no-such-flag"},
		{[]string{"--turn-time", "soon"}, "soon"},
		{[]string{"--turn-time", "-1s"}, "-1s"},
		{[]string{"extra"}, "extra"},
	} {
		var out strings.Builder
		if code := exitCode(run(c.args, &out), &out); code != 1 {
			t.Errorf("%q: exit code %d, want 1", c.args, code)
		}
		if n := strings.Count(out.String(), c.want); n != 1 {
			t.Errorf("%q: %q shown %d times, want once:\n%s", c.args, c.want, n, out.String())
		}
	}
	var out strings.Builder
	if code := exitCode(run([]string{"--help"}, &out), &out); code != 1 || !strings.Contains(out.String(), "-listen") || strings.Contains(out.String(), "\nauthority:") {
		t.Errorf("--help: exit code %d, output:\n%s", code, out.String())
	}
}

// TestServe starts the server on a free port and checks what a deployment
// relies on: health, reflection (what grpcurl uses), a table that plays,
// and a graceful stop that ends open streams.
func TestServe(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse(nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	o.defaults.RoundPause = time.Millisecond
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, nil, zaptest.NewLogger(t), o) }()

	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	health := healthpb.NewHealthClient(conn)
	for _, svc := range []string{"", "mahjong.authority.v1.TableService", "mahjong.authority.v1.JudgeService"} {
		r, err := health.Check(cctx, &healthpb.HealthCheckRequest{Service: svc}, grpc.WaitForReady(true))
		if err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Fatalf("health of %q = %v, %v", svc, r, err)
		}
	}

	// Requests are capped at 16 KiB before any handler runs.
	_, err = pb.NewJudgeServiceClient(conn).Judge(cctx, &pb.JudgeRequest{Hand: strings.Repeat("1m", 10<<10)})
	if status.Code(err) != codes.ResourceExhausted {
		t.Fatalf("a 20 KiB request = %v, want ResourceExhausted", err)
	}

	refl, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(cctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := refl.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}}); err != nil {
		t.Fatal(err)
	}
	lr, err := refl.Recv()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range lr.GetListServicesResponse().GetService() {
		names = append(names, s.GetName())
	}
	for _, want := range []string{"mahjong.authority.v1.TableService", "mahjong.authority.v1.JudgeService", "grpc.health.v1.Health"} {
		if !slices.Contains(names, want) {
			t.Errorf("reflection lists %v, missing %s", names, want)
		}
	}
	refl.CloseSend()

	// A bot table with one player: the player's stream is open when the
	// server stops.
	tables := pb.NewTableServiceClient(conn)
	cr, err := tables.CreateTable(cctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true}})
	if err != nil {
		t.Fatal(err)
	}
	jr, err := tables.JoinTable(cctx, &pb.JoinTableRequest{TableId: cr.GetTable().GetTableId(), Name: "me"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tables.StartTable(cctx, &pb.StartTableRequest{TableId: cr.GetTable().GetTableId(), Token: jr.GetSeatToken()}); err != nil {
		t.Fatal(err)
	}
	st, err := tables.StreamEvents(cctx, &pb.StreamEventsRequest{TableId: cr.GetTable().GetTableId(), SeatToken: jr.GetSeatToken()})
	if err != nil {
		t.Fatal(err)
	}
	first, err := st.Recv()
	if err != nil || first.GetSnapshot() == nil {
		t.Fatalf("first stream item = %v, %v; want a snapshot", first, err)
	}

	stop()
	for {
		_, err := st.Recv()
		if err != nil {
			if status.Code(err) != codes.Unavailable {
				t.Fatalf("stream ended with %v, want Unavailable", err)
			}
			break
		}
	}
	if err := <-served; err != nil {
		t.Fatalf("serve = %v, want nil after a graceful stop", err)
	}
}

// TestStopEndsHealthWatch stops a server while a client watches its health
// (as gRPC's client-side health checking does on every connection): the
// watch ends and the graceful stop returns at once, instead of waiting
// the whole stop wait for a stream that only the client would end.
func TestStopEndsHealthWatch(t *testing.T) {
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	o, err := parse([]string{"--stop-wait", "1m"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	served := make(chan error, 1)
	go func() { served <- serve(ctx, lis, nil, zaptest.NewLogger(t), o) }()
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	cctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	w, err := healthpb.NewHealthClient(conn).Watch(cctx, &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := w.Recv(); err != nil || r.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health watch = %v, %v; want SERVING", r, err)
	}

	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("serve = %v, want nil after a graceful stop", err)
		}
	case <-cctx.Done():
		t.Fatal("the server did not stop while a health watch was open")
	}
	for {
		if _, err := w.Recv(); err != nil {
			break
		}
	}
}

// TestParseRefusesNegativeSettings refuses negative timers, rates and
// limits: the server reads them as "off", so that a typo would silently
// switch off a turn timer, the claim dwell that keeps claim windows
// secret, or a rate limit. Zero stays allowed.
func TestParseRefusesNegativeSettings(t *testing.T) {
	durations := []string{"--turn-time", "--claim-time", "--spectator-delay", "--disconnect-grace", "--round-pause", "--claim-dwell", "--stop-wait"}
	numbers := []string{"--seat-rate", "--seat-burst", "--conn-rate", "--conn-burst", "--max-tables", "--max-seat-streams", "--max-conn-streams"}
	check := func(flag, bad, zero string) {
		if _, err := parse([]string{flag, bad}, io.Discard); err == nil {
			t.Errorf("parse accepted %s %s", flag, bad)
		}
		if _, err := parse([]string{flag, zero}, io.Discard); err != nil {
			t.Errorf("parse refused %s %s: %v", flag, zero, err)
		}
	}
	for _, f := range durations {
		check(f, "-1s", "0s")
	}
	for _, f := range numbers {
		check(f, "-1", "0")
	}
	check("--seat-rate", "NaN", "0.5")
}

// TestTLSFlags: the TLS files go together, and mutual TLS needs TLS.
func TestTLSFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--tls-cert", "c.pem"},
		{"--tls-key", "k.pem"},
		{"--client-ca", "ca.pem"},
	} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("parse(%q) accepted", args)
		}
	}
	o, err := parse([]string{"--tls-cert", "c.pem", "--tls-key", "k.pem", "--client-ca", "ca.pem"}, io.Discard)
	if err != nil || o.web.clientCA != "ca.pem" {
		t.Errorf("parse(TLS with a client CA) = %+v, %v", o.web, err)
	}
	if _, err := clientCATLS(filepath.Join(t.TempDir(), "none.pem")); err == nil {
		t.Error("clientCATLS of a missing file succeeded")
	}
}

// TestParseCluster: the cluster flags go together, and --advertise
// defaults to a --listen others can reach.
func TestParseCluster(t *testing.T) {
	o, err := parse([]string{"--listen", "10.0.0.1:7400", "--cluster", "n1", "--nats", "nats://a:4222,nats://b:4222"}, io.Discard)
	if err != nil || o.cluster.advertise != "10.0.0.1:7400" || o.cluster.ttl != 5*time.Second || o.cluster.replicas != 3 {
		t.Fatalf("parse = %+v, %v", o.cluster, err)
	}
	for _, args := range [][]string{
		{"--nats", "nats://a:4222"}, // no --cluster
		{"--no-forward"},            // no --cluster
		{"--cluster", "n1"},         // no --nats
		{"--cluster", "n1", "--nats", "nats://a", "--data", t.TempDir()},      // two stores
		{"--cluster", "n1", "--nats", "nats://a", "--lease-ttl", "10ms"},      // too short
		{"--cluster", "n1", "--nats", "nats://a", "--replicas", "0"},          // no replica
		{"--cluster", "n1", "--nats", "nats://a", "--listen", "0.0.0.0:7400"}, // nobody reaches 0.0.0.0
		{"--peer-ca", "ca.pem"}, // no --cluster
		{"--cluster", "n1", "--nats", "nats://a", "--peer-ca", "ca.pem"}, // the nodes do not serve TLS
	} {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("parse accepted %q", args)
		}
	}
	if o, err := parse([]string{"--listen", "0.0.0.0:7400", "--cluster", "n1", "--nats", "nats://a", "--advertise", "10.0.0.1:7400"}, io.Discard); err != nil || o.cluster.advertise != "10.0.0.1:7400" {
		t.Fatalf("parse with --advertise = %+v, %v", o.cluster, err)
	}
}
