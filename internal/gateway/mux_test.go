package gateway_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"testing"
	"time"

	"connectrpc.com/connect"
	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/gateway"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

func newServer(t *testing.T) *server.Server {
	t.Helper()
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())},
		Defaults: server.StandardDefaults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// TestH2CNotGRPC: an HTTP/2 client that sends its first request without
// waiting for the server's SETTINGS (Go's, a browser's) and speaks
// Connect or gRPC-Web, not native gRPC, is sniffed and handed to net/http
// without the sniffer having written anything on its connection (a
// SETTINGS frame net/http did not send would end the connection when the
// client acknowledges it).
func TestH2CNotGRPC(t *testing.T) {
	addr := serveMux(t, newServer(t), gateway.Config{}, nil)
	var p http.Protocols
	p.SetUnencryptedHTTP2(true)
	tr := &http.Transport{Protocols: &p}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: tr}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for _, proto := range protocols[1:] {
		c := connect.NewClient[pb.ListTablesRequest, pb.ListTablesResponse](hc, "http://"+addr+svc+"ListTables", proto.opts...)
		// Several calls: the connection must stay usable.
		for i := range 3 {
			if _, err := c.CallUnary(ctx, connect.NewRequest(&pb.ListTablesRequest{})); err != nil {
				t.Fatalf("%s over h2c, call %d: %v", proto.name, i, err)
			}
		}
	}
	res, err := hc.Get("http://" + addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.ProtoMajor != 2 {
		t.Fatalf("GET / went over HTTP/%d, want HTTP/2", res.ProtoMajor)
	}
}

// TestSilentConnections: connections that say nothing, or stop after the
// HTTP/2 preface, do not hold up the others.
func TestSilentConnections(t *testing.T) {
	cert, roots := serverCert(t)
	for _, withTLS := range []bool{false, true} {
		var tlsCfg *tls.Config
		creds := grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots}))
		scheme := "https://"
		if withTLS {
			tlsCfg = gateway.TLSConfig(cert, nil)
		} else {
			creds = grpc.WithTransportCredentials(insecure.NewCredentials())
			scheme = "http://"
		}
		addr := serveMux(t, newServer(t), gateway.Config{}, tlsCfg)
		for range 3 {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
		}
		if !withTLS {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.Write([]byte(http2.ClientPreface))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		conn, err := grpc.NewClient(addr, creds)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := pb.NewTableServiceClient(conn).ListTables(ctx, &pb.ListTablesRequest{}); err != nil {
			t.Fatalf("gRPC (TLS %v) beside silent connections: %v", withTLS, err)
		}
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}
		defer tr.CloseIdleConnections()
		cc := connect.NewClient[pb.ListTablesRequest, pb.ListTablesResponse](&http.Client{Transport: tr}, scheme+addr+svc+"ListTables")
		if _, err := cc.CallUnary(ctx, connect.NewRequest(&pb.ListTablesRequest{})); err != nil {
			t.Fatalf("Connect (TLS %v) beside silent connections: %v", withTLS, err)
		}
	}
}

// TestKeepaliveEnforced: native gRPC is on grpc-go's own transport, so
// its keepalive enforcement holds: a client that pings more often than
// the policy allows is sent GOAWAY ENHANCE_YOUR_CALM (too_many_pings).
// Through net/http (ServeHTTP) every ping would just be answered.
func TestKeepaliveEnforced(t *testing.T) {
	addr := serveMux(t, newServer(t), gateway.Config{}, nil,
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: time.Minute, PermitWithoutStream: true}))
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := c.Write([]byte(http2.ClientPreface)); err != nil {
		t.Fatal(err)
	}
	fr := http2.NewFramer(c, c)
	if err := fr.WriteSettings(); err != nil {
		t.Fatal(err)
	}
	// A native gRPC request first, so that the sniffer hands the
	// connection to grpc-go; it waits for the server's SETTINGS first,
	// as gRPC clients do.
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("waiting for the server's SETTINGS: %v", err)
		}
		if sf, ok := f.(*http2.SettingsFrame); ok && !sf.IsAck() {
			break
		}
	}
	var hb bytes.Buffer
	enc := hpack.NewEncoder(&hb)
	for _, hf := range [][2]string{{":method", "POST"}, {":scheme", "http"}, {":path", svc + "ListTables"},
		{":authority", addr}, {"content-type", "application/grpc"}, {"te", "trailers"}} {
		enc.WriteField(hpack.HeaderField{Name: hf[0], Value: hf[1]})
	}
	if err := fr.WriteHeaders(http2.HeadersFrameParam{StreamID: 1, BlockFragment: hb.Bytes(), EndHeaders: true}); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		if err := fr.WritePing(false, [8]byte{byte(i)}); err != nil {
			t.Fatal(err)
		}
	}
	for {
		f, err := fr.ReadFrame()
		if err != nil {
			t.Fatalf("no GOAWAY after 10 pings at once: %v", err)
		}
		if ga, ok := f.(*http2.GoAwayFrame); ok {
			if ga.ErrCode != http2.ErrCodeEnhanceYourCalm || string(ga.DebugData()) != "too_many_pings" {
				t.Fatalf("GOAWAY %v %q, want ENHANCE_YOUR_CALM too_many_pings", ga.ErrCode, ga.DebugData())
			}
			return
		}
	}
}

// TestNativeConnLimits: on grpc-go's own transport the per-connection
// rate limit comes from the server's Listener (each connection carries
// its bucket in its peer address, through the Mux's sniffing), not from
// net/http's ConnContext: it holds there too, per connection.
func TestNativeConnLimits(t *testing.T) {
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())},
		Defaults: server.StandardDefaults, ConnRate: host.Rate{PerSecond: 0.001, Burst: 2}, MaxConnStreams: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	addr := serveMux(t, srv, gateway.Config{}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	dial := func() pb.TableServiceClient {
		conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close() })
		return pb.NewTableServiceClient(conn)
	}
	c := dial()
	for i := range 3 {
		_, err := c.ListTables(ctx, &pb.ListTablesRequest{})
		if i < 2 && err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		if i == 2 {
			code, _, info := errorParts(t, err)
			if code != codes.ResourceExhausted || info.GetReason() != pb.ErrorReason_ERROR_REASON_RATE_LIMITED.String() {
				t.Fatalf("third call on one connection with a burst of 2: %v %v", code, info)
			}
		}
	}
	// Another connection has a bucket of its own.
	if _, err := dial().ListTables(ctx, &pb.ListTablesRequest{}); err != nil {
		t.Fatalf("first call on a second connection: %v", err)
	}
}
