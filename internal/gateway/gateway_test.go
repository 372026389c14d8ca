package gateway_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/gateway"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
	"github.com/mahjong-authority/authority/internal/ruleset/riichi"
	"github.com/mahjong-authority/authority/internal/server"
)

// start serves a riichi server through the gateway on a free loopback
// port and returns its base URL (http://host:port).
func start(t *testing.T, cfg gateway.Config) string {
	t.Helper()
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())},
		Defaults: server.StandardDefaults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return "http://" + serveMux(t, srv, cfg, nil)
}

// serveMux serves srv as authority does, through a Mux (with TLS if
// tlsCfg is not nil) on a free loopback port, and returns its address.
func serveMux(t *testing.T, srv *server.Server, cfg gateway.Config, tlsCfg *tls.Config, opts ...grpc.ServerOption) string {
	t.Helper()
	g := grpc.NewServer(append(append(gateway.ServerOptions(tlsCfg != nil), srv.Options()...), opts...)...)
	srv.Register(g)
	h, err := gateway.Handler(g, cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.ConnContext = srv.ConnContext
	hs := gateway.Server(h, cfg)
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := gateway.NewMux(srv.Listener(lis), tlsCfg)
	done := make(chan error, 1)
	go func() { done <- mux.Serve(g, hs) }()
	t.Cleanup(func() {
		mux.Close()
		hs.Close()
		g.Stop()
		if err := <-done; err != nil {
			t.Errorf("Mux.Serve: %v", err)
		}
	})
	return lis.Addr().String()
}

// protocols are the three ways a client may call: native gRPC over h2c
// (grpc-go's client), and Connect's client speaking the Connect protocol
// with JSON and gRPC-Web with binary protobuf over HTTP/1.1.
var protocols = []struct {
	name string
	opts []connect.ClientOption
}{
	{"grpc", nil},
	{"connect-json", []connect.ClientOption{connect.WithProtoJSON()}},
	{"grpc-web", []connect.ClientOption{connect.WithGRPCWeb()}},
}

// api is the part of TableService the tests call, in any protocol.
type api struct {
	create  func(context.Context, *pb.CreateTableRequest) (*pb.CreateTableResponse, error)
	join    func(context.Context, *pb.JoinTableRequest) (*pb.JoinTableResponse, error)
	startT  func(context.Context, *pb.StartTableRequest) (*pb.StartTableResponse, error)
	streamN func(context.Context, *pb.StreamEventsRequest, int) ([]*pb.StreamEventsResponse, error)
}

const svc = "/mahjong.authority.v1.TableService/"

func connectAPI(base string, opts []connect.ClientOption) api {
	hc := http.DefaultClient
	create := connect.NewClient[pb.CreateTableRequest, pb.CreateTableResponse](hc, base+svc+"CreateTable", opts...)
	join := connect.NewClient[pb.JoinTableRequest, pb.JoinTableResponse](hc, base+svc+"JoinTable", opts...)
	st := connect.NewClient[pb.StartTableRequest, pb.StartTableResponse](hc, base+svc+"StartTable", opts...)
	events := connect.NewClient[pb.StreamEventsRequest, pb.StreamEventsResponse](hc, base+svc+"StreamEvents", opts...)
	return api{
		create: func(ctx context.Context, r *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
			res, err := create.CallUnary(ctx, connect.NewRequest(r))
			if err != nil {
				return nil, err
			}
			return res.Msg, nil
		},
		join: func(ctx context.Context, r *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
			res, err := join.CallUnary(ctx, connect.NewRequest(r))
			if err != nil {
				return nil, err
			}
			return res.Msg, nil
		},
		startT: func(ctx context.Context, r *pb.StartTableRequest) (*pb.StartTableResponse, error) {
			res, err := st.CallUnary(ctx, connect.NewRequest(r))
			if err != nil {
				return nil, err
			}
			return res.Msg, nil
		},
		streamN: func(ctx context.Context, r *pb.StreamEventsRequest, n int) ([]*pb.StreamEventsResponse, error) {
			s, err := events.CallServerStream(ctx, connect.NewRequest(r))
			if err != nil {
				return nil, err
			}
			defer s.Close()
			var out []*pb.StreamEventsResponse
			for len(out) < n && s.Receive() {
				out = append(out, s.Msg())
			}
			if len(out) < n {
				return out, s.Err()
			}
			return out, nil
		},
	}
}

func grpcAPI(t *testing.T, base string) api {
	conn, err := grpc.NewClient(strings.TrimPrefix(base, "http://"), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := pb.NewTableServiceClient(conn)
	return api{
		create: func(ctx context.Context, r *pb.CreateTableRequest) (*pb.CreateTableResponse, error) {
			return c.CreateTable(ctx, r)
		},
		join: func(ctx context.Context, r *pb.JoinTableRequest) (*pb.JoinTableResponse, error) {
			return c.JoinTable(ctx, r)
		},
		startT: func(ctx context.Context, r *pb.StartTableRequest) (*pb.StartTableResponse, error) {
			return c.StartTable(ctx, r)
		},
		streamN: func(ctx context.Context, r *pb.StreamEventsRequest, n int) ([]*pb.StreamEventsResponse, error) {
			s, err := c.StreamEvents(ctx, r)
			if err != nil {
				return nil, err
			}
			var out []*pb.StreamEventsResponse
			for len(out) < n {
				m, err := s.Recv()
				if err != nil {
					return out, err
				}
				out = append(out, m)
			}
			return out, nil
		},
	}
}

// TestProtocols plays the same calls in every protocol: a unary call, a
// server stream (a snapshot, then the seat's numbered events) and an
// error, whose code, message and ErrorInfo must come through unchanged.
func TestProtocols(t *testing.T) {
	base := start(t, gateway.Config{})
	for _, p := range protocols {
		t.Run(p.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			a := connectAPI(base, p.opts)
			if p.opts == nil {
				a = grpcAPI(t, base)
			}
			// A short turn: the seat's own turns time out, so that events come
			// whichever seat deals.
			cr, err := a.create(ctx, &pb.CreateTableRequest{Settings: &pb.TableSettings{FillWithBots: true,
				TurnTime: durationpb.New(200 * time.Millisecond), ClaimDwell: durationpb.New(0)}})
			if err != nil {
				t.Fatalf("CreateTable: %v", err)
			}
			id := cr.GetTable().GetTableId()
			if id == "" || cr.GetOwnerToken() == "" {
				t.Fatalf("CreateTable: %v", cr)
			}
			jr, err := a.join(ctx, &pb.JoinTableRequest{TableId: id, Name: p.name})
			if err != nil {
				t.Fatalf("JoinTable: %v", err)
			}
			if _, err := a.startT(ctx, &pb.StartTableRequest{TableId: id, Token: cr.GetOwnerToken()}); err != nil {
				t.Fatalf("StartTable: %v", err)
			}
			got, err := a.streamN(ctx, &pb.StreamEventsRequest{TableId: id, SeatToken: jr.GetSeatToken()}, 3)
			if err != nil {
				t.Fatalf("StreamEvents: %v after %d messages", err, len(got))
			}
			if got[0].GetSnapshot() == nil {
				t.Fatalf("first message %v, want a snapshot", got[0])
			}
			for i, m := range got[1:] {
				if want := got[0].GetSnapshot().GetSeq() + uint64(i) + 1; m.GetEvent().GetSeq() != want {
					t.Fatalf("message %d: %v, want the event seq %d", i+1, m, want)
				}
			}

			_, err = a.join(ctx, &pb.JoinTableRequest{TableId: "no-such-table", Name: "x"})
			code, msg, info := errorParts(t, err)
			if code != codes.NotFound || !strings.Contains(msg, "no-such-table") ||
				info.GetReason() != pb.ErrorReason_ERROR_REASON_TABLE_NOT_FOUND.String() || info.GetDomain() != server.ErrorDomain {
				t.Fatalf("JoinTable of an unknown table: %v %q %v", code, msg, info)
			}
		})
	}
}

// errorParts reads the code, message and ErrorInfo of a gRPC or Connect
// error.
func errorParts(t *testing.T, err error) (codes.Code, string, *errdetails.ErrorInfo) {
	t.Helper()
	if err == nil {
		t.Fatal("no error")
	}
	var ce *connect.Error
	if errors.As(err, &ce) {
		for _, d := range ce.Details() {
			v, derr := d.Value()
			if info, ok := v.(*errdetails.ErrorInfo); ok && derr == nil {
				return codes.Code(ce.Code()), ce.Message(), info
			}
		}
		return codes.Code(ce.Code()), ce.Message(), nil
	}
	st := status.Convert(err)
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok {
			return st.Code(), st.Message(), info
		}
	}
	return st.Code(), st.Message(), nil
}

// TestConnectJSONByHand is what a client without any library sends: a
// JSON POST over HTTP/1.1, and a JSON error with the ErrorInfo detail.
func TestConnectJSONByHand(t *testing.T) {
	base := start(t, gateway.Config{})
	post := func(method, body string) (int, map[string]any) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, base+svc+method, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Connect-Protocol-Version", "1") // without it a JSON POST is not Connect
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v in %s", method, err, b)
		}
		return res.StatusCode, m
	}
	code, m := post("CreateTable", `{"settings":{"fill_with_bots":true}}`)
	if code != 200 || m["owner_token"] == "" || m["table"].(map[string]any)["table_id"] == "" {
		t.Fatalf("CreateTable: %d %v", code, m)
	}
	code, m = post("GetTable", `{"table_id":"nope"}`)
	details, _ := m["details"].([]any)
	if code != 404 || m["code"] != "not_found" || len(details) != 1 ||
		details[0].(map[string]any)["type"] != "google.rpc.ErrorInfo" {
		t.Fatalf("GetTable of an unknown table: %d %v", code, m)
	}
}

// TestCORS: no origin is allowed by default; --cors-origin's are, with
// the headers the browser clients need.
func TestCORS(t *testing.T) {
	preflight := func(base, origin string) http.Header {
		req, _ := http.NewRequest(http.MethodOptions, base+svc+"CreateTable", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "connect-protocol-version,content-type")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.Header
	}
	if h := preflight(start(t, gateway.Config{}), "https://a.example"); h.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("no origins configured, but a preflight got %v", h)
	}
	base := start(t, gateway.Config{CORSOrigins: []string{"https://a.example"}})
	if h := preflight(base, "https://a.example"); h.Get("Access-Control-Allow-Origin") != "https://a.example" {
		t.Fatalf("allowed origin: %v", h)
	}
	if h := preflight(base, "https://b.example"); h.Get("Access-Control-Allow-Origin") != "" {
		t.Fatalf("other origin: %v", h)
	}
}

// TestPage: a path that is not an RPC is the page's.
func TestPage(t *testing.T) {
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page "+r.URL.Path) })
	base := start(t, gateway.Config{Page: page})
	res, err := http.Get(base + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if string(b) != "page /" {
		t.Fatalf("GET /: %q", b)
	}
}

// TestTLS: with TLS terminated by the Mux, gRPC (HTTP/2 by ALPN, on
// grpc-go's transport) and Connect and gRPC-Web over HTTPS, HTTP/1.1 and
// HTTP/2 alike, reach the same services.
func TestTLS(t *testing.T) {
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())},
		Defaults: server.StandardDefaults})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	cert, roots := serverCert(t)
	addr := serveMux(t, srv, gateway.Config{}, gateway.TLSConfig(cert, nil))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(credentials.NewTLS(&tls.Config{RootCAs: roots})))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := pb.NewTableServiceClient(conn).ListTables(ctx, &pb.ListTablesRequest{}); err != nil {
		t.Fatalf("gRPC over TLS: %v", err)
	}
	for _, h2 := range []bool{false, true} {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: h2}
		defer tr.CloseIdleConnections()
		for _, p := range protocols[1:] {
			c := connect.NewClient[pb.ListTablesRequest, pb.ListTablesResponse](&http.Client{Transport: tr},
				"https://"+addr+svc+"ListTables", p.opts...)
			if _, err := c.CallUnary(ctx, connect.NewRequest(&pb.ListTablesRequest{})); err != nil {
				t.Fatalf("%s over HTTPS (HTTP/2 %v): %v", p.name, h2, err)
			}
		}
		res, err := (&http.Client{Transport: tr}).Get("https://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if want := map[bool]int{false: 1, true: 2}[h2]; res.ProtoMajor != want {
			t.Fatalf("GET / went over HTTP/%d, want HTTP/%d", res.ProtoMajor, want)
		}
	}
}

// serverCert is a certificate for 127.0.0.1 and the pool that trusts it.
func serverCert(t *testing.T) (tls.Certificate, *x509.CertPool) {
	t.Helper()
	ca, caKey := newCA(t, "server CA")
	cert := newLeaf(t, ca, caKey, "127.0.0.1")
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	return cert, pool
}

// TestConnRateLimit: the per-connection rate limit holds for calls that
// come through the gateway (ConnContext attaches it to each connection).
func TestConnRateLimit(t *testing.T) {
	srv, err := server.New(server.Config{RuleSets: []ruleset.RuleSet{riichi.New(riichi.Standard())},
		Defaults: server.StandardDefaults, ConnRate: host.Rate{PerSecond: 0.001, Burst: 2}, MaxConnStreams: 4})
	if err != nil {
		t.Fatal(err)
	}
	g := grpc.NewServer(srv.Options()...)
	srv.Register(g)
	h, err := gateway.Handler(g, gateway.Config{})
	if err != nil {
		t.Fatal(err)
	}
	hs := gateway.Server(h, gateway.Config{ConnContext: srv.ConnContext})
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(lis)
	t.Cleanup(func() {
		srv.Close()
		hs.Close()
		g.Stop()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := connect.NewClient[pb.ListTablesRequest, pb.ListTablesResponse](http.DefaultClient,
		"http://"+lis.Addr().String()+svc+"ListTables")
	for i := range 3 {
		_, err := c.CallUnary(ctx, connect.NewRequest(&pb.ListTablesRequest{}))
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
}
