// Package gateway serves a gRPC server's services over HTTP in every
// protocol a client may speak on one address: native gRPC, gRPC-Web and
// Connect (binary and JSON), over HTTP/1.1, HTTP/2 with TLS and HTTP/2
// without it (h2c), with CORS for the origins it is given, and a page
// (the web client) for every path that is not an RPC.
//
// The translation is connectrpc.com/vanguard's transcoder: a gRPC-Web or
// Connect request becomes a gRPC request to the grpc-go server's
// ServeHTTP, and its answer (status, message and details such as
// ErrorInfo) goes back in the client's protocol. Native gRPC does not
// come this way when the listener is a Mux (mux.go): those connections
// go to the grpc.Server's own transport; what is left of it here (an
// HTTP/2 connection whose first request was something else) passes
// through the transcoder unchanged.
package gateway

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	connectcors "connectrpc.com/cors"
	"connectrpc.com/vanguard"
	"connectrpc.com/vanguard/vanguardgrpc"
	"github.com/rs/cors"
	"google.golang.org/grpc"
	"google.golang.org/grpc/encoding"
	"google.golang.org/protobuf/encoding/protojson"
)

// Config says what the handler serves besides the RPCs.
type Config struct {
	// CORSOrigins are the origins whose pages may call the API (for
	// example "https://play.example.com", or "*" for any). None by
	// default: the server's own page is same-origin.
	CORSOrigins []string
	// Page answers every request that is not an RPC (nil: 404).
	Page http.Handler
	// ConnContext, if set, derives each connection's context (the
	// gRPC server's per-connection limits hang on it).
	ConnContext func(ctx context.Context, c net.Conn) context.Context
}

// The JSON codec lets Connect JSON requests through to grpc-go without a
// second translation. Names are sent as in the proto (snake_case), as
// docs/protocol.md shows them, and protojson reads both spellings.
func init() {
	encoding.RegisterCodec(vanguardgrpc.NewCodec(&vanguard.JSONCodec{
		MarshalOptions:   protojson.MarshalOptions{UseProtoNames: true},
		UnmarshalOptions: protojson.UnmarshalOptions{DiscardUnknown: true},
	}))
}

// maxBuffered bounds a message the transcoder holds in memory while it
// translates it (the default is 4 GiB). Requests are far smaller (grpc-go
// refuses one past the server's limit); the largest answers are game
// records of a few hundred KiB.
const maxBuffered = 8 << 20

// Handler serves every service registered on g in every protocol, and
// cfg.Page for the rest.
func Handler(g *grpc.Server, cfg Config) (http.Handler, error) {
	opts := []vanguard.TranscoderOption{vanguard.WithDefaultServiceOptions(vanguard.WithMaxMessageBufferBytes(maxBuffered))}
	if cfg.Page != nil {
		opts = append(opts, vanguard.WithUnknownHandler(cfg.Page))
	}
	t, err := newTranscoder(g, opts)
	if err != nil {
		return nil, fmt.Errorf("transcoder: %w", err)
	}
	var h http.Handler = withTLS(keepBody(t))
	if len(cfg.CORSOrigins) > 0 {
		h = cors.New(cors.Options{
			AllowedOrigins: cfg.CORSOrigins,
			AllowedMethods: connectcors.AllowedMethods(),
			AllowedHeaders: connectcors.AllowedHeaders(),
			ExposedHeaders: connectcors.ExposedHeaders(),
			MaxAge:         7200,
		}).Handler(h)
	}
	return h, nil
}

// newTranscoder is vanguardgrpc.NewTranscoder with g behind unblockClose:
// every service of g, gRPC as the protocol towards it, and the codecs it
// has (proto, and the JSON one registered above).
func newTranscoder(g *grpc.Server, opts []vanguard.TranscoderOption) (*vanguard.Transcoder, error) {
	codecs := []string{vanguard.CodecProto}
	if encoding.GetCodec(vanguard.CodecJSON) != nil {
		codecs = append(codecs, vanguard.CodecJSON)
	}
	h := unblockClose(g)
	var svcs []*vanguard.Service
	for name := range g.GetServiceInfo() {
		svcs = append(svcs, vanguard.NewService(name, h))
	}
	all := append([]vanguard.TranscoderOption{vanguard.WithDefaultServiceOptions(
		vanguard.WithTargetCodecs(codecs...),
		vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
	)}, opts...)
	return vanguard.NewTranscoder(svcs, all...)
}

// A stream the server ends while the client still sends (Multiplex ending
// with INVALID_ARGUMENT, or at a drain) would hang in vanguard 0.4.0
// without unblockClose: grpc-go's ServeHTTP closes the request body and
// waits for its reading goroutine before it returns, that goroutine is
// blocked in the transcoder's body Read waiting for the client's next
// message while holding the lock the transcoder's Close needs, and the
// transcoder sends the stream's end (its status) only once ServeHTTP has
// returned. Closing the client's own body first ends that Read.

// bodyKey carries a request's body as net/http gave it past the
// transcoder, which replaces it.
type bodyKey struct{}

// keepBody remembers r's own body for unblockClose.
func keepBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), bodyKey{}, r.Body)))
	})
}

// unblockClose serves g with a body whose Close closes the client's body
// before the transcoder's.
func unblockClose(g *grpc.Server) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if b, ok := r.Context().Value(bodyKey{}).(io.ReadCloser); ok {
			r.Body = closeFirst{ReadCloser: r.Body, client: b}
		}
		g.ServeHTTP(w, r)
	})
}

type closeFirst struct {
	io.ReadCloser
	client io.Closer
}

func (c closeFirst) Close() error {
	_ = c.client.Close() // net/http's: wakes a Read blocked on it
	return c.ReadCloser.Close()
}

// Keepalive of HTTP/2 connections, as grpc-go's own transport would do
// it: a ping after 30s without a frame, the connection closed if it is
// not answered in 10s, so that dead phones and NAT timeouts are noticed.
const (
	pingAfter   = 30 * time.Second
	pingTimeout = 10 * time.Second
)

// Server is an http.Server for h: HTTP/1.1 and HTTP/2 with TLS, HTTP/1.1
// and HTTP/2 with prior knowledge (h2c, what gRPC clients use) without it.
func Server(h http.Handler, cfg Config) *http.Server {
	var p http.Protocols
	p.SetHTTP1(true)
	p.SetHTTP2(true)
	p.SetUnencryptedHTTP2(true)
	return &http.Server{
		Handler:           h,
		Protocols:         &p,
		ReadHeaderTimeout: 10 * time.Second,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if tc := tlsConn(c); tc != nil {
				ctx = context.WithValue(ctx, tlsKey{}, tc)
			}
			if cfg.ConnContext != nil {
				ctx = cfg.ConnContext(ctx, c)
			}
			return ctx
		},
		HTTP2: &http.HTTP2Config{
			SendPingTimeout: pingAfter,
			PingTimeout:     pingTimeout,
		},
	}
}
