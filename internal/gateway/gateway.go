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
	t, err := vanguardgrpc.NewTranscoder(g, opts...)
	if err != nil {
		return nil, fmt.Errorf("transcoder: %w", err)
	}
	var h http.Handler = withTLS(t)
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
