package gateway

import (
	"bytes"
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/soheilhy/cmux"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials"
)

// Why two transports on one port: grpc-go's own HTTP/2 transport serves
// native gRPC for much less per connection and per stream than its
// ServeHTTP under net/http (no goroutine per stream, no flush per
// message, and grpc keepalive enforcement), but it speaks nothing else.
// So each connection is looked at once, when it opens: HTTP/2 whose
// first request is native gRPC goes to the grpc.Server, everything else
// (HTTP/1.1, gRPC-Web, Connect, the page, browsers over HTTP/2) to the
// net/http server and the transcoder. The sniffing is
// github.com/soheilhy/cmux's.

// SniffTimeout bounds how long a new connection may take to show what it
// is (with TLS, the handshake included); a silent one is then closed or
// handed to net/http, whose own timeouts apply. Matching runs in a
// goroutine per connection, so a slow one never holds up the others.
const SniffTimeout = 10 * time.Second

// settingsWait is how long the sniffer waits for more bytes after a
// client's HTTP/2 SETTINGS before it answers with SETTINGS of its own.
// gRPC clients wait for the server's SETTINGS before their first request;
// browsers and Go's HTTP/2 client send it at once. A SETTINGS sent by the
// sniffer is one net/http does not know of: its client's acknowledgement
// would end the connection there (an unexpected SETTINGS ACK is a
// protocol error to net/http), so it is sent only to a client that went
// quiet, which is a gRPC client.
const settingsWait = 5 * time.Millisecond

// acceptPause is the pause after a failed accept.
const acceptPause = 10 * time.Millisecond

// Mux splits the connections of one listener between the native gRPC
// transport and the net/http server.
type Mux struct {
	lis    net.Listener
	m      cmux.CMux
	grpcL  net.Listener
	http1L net.Listener
	otherL net.Listener
}

// NewMux sniffs lis's connections. With cfg, it terminates TLS first
// (cfg should offer ALPN h2 and http/1.1, as TLSConfig does); the TLS
// state still reaches the services: on the gRPC side through
// TerminatedTLS (give it to the grpc.Server), on the net/http side
// through Server's ConnContext and Handler.
func NewMux(lis net.Listener, cfg *tls.Config) *Mux {
	root := lis
	if cfg != nil {
		// Each connection's handshake runs in its sniffing goroutine,
		// under SniffTimeout.
		lis = tls.NewListener(lis, cfg)
	}
	m := cmux.New(lis)
	m.SetReadTimeout(SniffTimeout)
	// cmux retries a temporary accept error (EMFILE, out of file
	// descriptors) at once, in a loop: pause first, as net/http and
	// grpc-go do. (Every connection matches: the last matcher is Any.)
	m.HandleError(func(err error) bool {
		var ne net.Error
		if errors.As(err, &ne) && !errors.As(err, new(cmux.ErrNotMatched)) {
			time.Sleep(acceptPause)
		}
		return true
	})
	mx := &Mux{lis: root, m: m}
	mx.http1L = m.Match(cmux.HTTP1Fast())
	mx.grpcL = m.MatchWithWriters(matchGRPC)
	mx.otherL = m.Match(cmux.Any())
	return mx
}

// Serve serves native gRPC connections on g and the rest on hs until
// Close; it returns nil then, having stopped accepting (the servers'
// connections stay until the servers are stopped). If accepting fails
// otherwise, it stops g and hs and returns the error.
func (mx *Mux) Serve(g *grpc.Server, hs *http.Server) error {
	errs := make(chan error, 4)
	go func() { errs <- g.Serve(mx.grpcL) }()
	go func() { errs <- hs.Serve(mx.http1L) }()
	go func() { errs <- hs.Serve(mx.otherL) }()
	go func() { errs <- mx.m.Serve() }()
	var failed error
	for range 4 {
		if err := <-errs; !isClosed(err) && failed == nil {
			failed = err
			mx.Close()
			g.Stop()
			hs.Close()
		}
	}
	return failed
}

// isClosed tells the errors of a stop from those of a failure.
func isClosed(err error) bool {
	return err == nil || errors.Is(err, http.ErrServerClosed) || errors.Is(err, cmux.ErrServerClosed) ||
		errors.Is(err, cmux.ErrListenerClosed) || errors.Is(err, net.ErrClosed) || errors.Is(err, grpc.ErrServerStopped)
}

// Close stops accepting connections; the servers' connections stay
// until the servers are stopped.
func (mx *Mux) Close() {
	mx.m.Close()
	_ = mx.lis.Close()
}

// matchGRPC matches an HTTP/2 connection whose first request is native
// gRPC: content-type application/grpc or application/grpc+CODEC (not
// application/grpc-web). The SETTINGS cmux's matcher writes are held
// back by quiet until the client waits for them.
func matchGRPC(w io.Writer, r io.Reader) bool {
	q := newQuiet(w)
	var seen bytes.Buffer
	if cmux.HTTP2MatchHeaderFieldSendSettings("content-type", "application/grpc")(q, q.reader(io.TeeReader(r, &seen))) {
		return true
	}
	// The second matcher reads the same frames again, then what follows.
	return cmux.HTTP2MatchHeaderFieldPrefixSendSettings("content-type", "application/grpc+")(q, q.reader(io.MultiReader(&seen, r)))
}

// quiet holds the SETTINGS frame a matcher writes until the client has
// sent nothing for settingsWait (see settingsWait), and writes it once.
type quiet struct {
	conn     net.Conn // nil: not a connection, write at once
	w        io.Writer
	deadline time.Time // cmux's read deadline
	pending  []byte
	sent     bool
}

func newQuiet(w io.Writer) *quiet {
	q := &quiet{w: w}
	if c, ok := w.(net.Conn); ok {
		q.conn, q.deadline = c, time.Now().Add(SniffTimeout)
	}
	return q
}

func (q *quiet) Write(p []byte) (int, error) {
	if q.sent || q.pending != nil {
		return len(p), nil // the client has, or will have, one SETTINGS
	}
	if q.conn == nil {
		q.sent = true
		return q.w.Write(p)
	}
	q.pending = append([]byte(nil), p...)
	return len(p), nil
}

func (q *quiet) reader(r io.Reader) io.Reader { return quietReader{q, r} }

type quietReader struct {
	q *quiet
	r io.Reader
}

func (qr quietReader) Read(p []byte) (int, error) {
	q := qr.q
	if q.pending == nil {
		return qr.r.Read(p)
	}
	_ = q.conn.SetReadDeadline(time.Now().Add(settingsWait))
	n, err := qr.r.Read(p)
	_ = q.conn.SetReadDeadline(q.deadline)
	var ne net.Error
	if n > 0 || err == nil || !errors.As(err, &ne) || !ne.Timeout() {
		return n, err
	}
	// Quiet: the client waits for the server's SETTINGS.
	pending := q.pending
	q.pending, q.sent = nil, true
	if _, err := q.conn.Write(pending); err != nil {
		return 0, err
	}
	return qr.r.Read(p)
}

// tlsConn is the TLS connection under a sniffed one, if any.
func tlsConn(c net.Conn) *tls.Conn {
	if mc, ok := c.(*cmux.MuxConn); ok {
		c = mc.Conn
	}
	tc, _ := c.(*tls.Conn)
	return tc
}

// TerminatedTLS are the transport credentials of a grpc.Server behind a
// Mux with TLS: the handshake is done, and the connection's TLS state
// becomes the peer's AuthInfo (credentials.TLSInfo), as grpc-go's own TLS
// credentials would give it, so client certificates (mutual TLS) are seen.
func TerminatedTLS() credentials.TransportCredentials { return terminated{} }

type terminated struct{}

var errNotTLS = errors.New("gateway: connection is not TLS (TerminatedTLS needs a Mux with TLS)")

func (terminated) ServerHandshake(c net.Conn) (net.Conn, credentials.AuthInfo, error) {
	tc := tlsConn(c)
	if tc == nil {
		return nil, nil, errNotTLS
	}
	return c, credentials.TLSInfo{State: tc.ConnectionState(),
		CommonAuthInfo: credentials.CommonAuthInfo{SecurityLevel: credentials.PrivacyAndIntegrity}}, nil
}

func (terminated) ClientHandshake(context.Context, string, net.Conn) (net.Conn, credentials.AuthInfo, error) {
	return nil, nil, errors.New("gateway: TerminatedTLS is for servers")
}

func (terminated) Info() credentials.ProtocolInfo {
	return credentials.ProtocolInfo{SecurityProtocol: "tls", SecurityVersion: "1.2"}
}

func (t terminated) Clone() credentials.TransportCredentials { return t }

func (terminated) OverrideServerName(string) error { return nil }

// TLSConfig is a server TLS configuration for a Mux: the certificate, and
// ALPN offering HTTP/2 and HTTP/1.1 (what net/http's ServeTLS would set).
func TLSConfig(cert tls.Certificate, base *tls.Config) *tls.Config {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if base != nil {
		cfg = base.Clone()
	}
	cfg.Certificates = []tls.Certificate{cert}
	cfg.NextProtos = []string{"h2", "http/1.1"}
	return cfg
}

// tlsKey carries a connection's TLS under the net/http server (which
// sees the sniffed connection as plain) to its requests.
type tlsKey struct{}

// withTLS gives r the TLS state of its connection when net/http could not
// (the connection came through a Mux with TLS).
func withTLS(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			if tc, ok := r.Context().Value(tlsKey{}).(*tls.Conn); ok {
				st := tc.ConnectionState()
				r2 := new(http.Request)
				*r2 = *r
				r2.TLS = &st
				r = r2
			}
		}
		h.ServeHTTP(w, r)
	})
}

// Per connection and per stream, grpc-go's defaults suit a few
// connections moving large messages: 32 KiB read and write buffers held by
// every connection, and receive windows that grow by BDP estimation (a
// ping per burst of data). Here connections are many, each with a few
// streams of small messages (an action of a few bytes, events of a few
// hundred), so the buffers are small (the write buffer taken from a pool
// only while there is something to write) and the windows fixed (which
// turns BDP pings off).
const (
	readBuffer   = 8 << 10
	writeBuffer  = 16 << 10
	streamWindow = 64 << 10
	connWindow   = 1 << 20
)

// ServerOptions are the options a grpc.Server behind a Mux needs: its
// transport's buffers and windows, and with TLS, TerminatedTLS.
func ServerOptions(withTLS bool) []grpc.ServerOption {
	opts := []grpc.ServerOption{
		grpc.ReadBufferSize(readBuffer),
		grpc.WriteBufferSize(writeBuffer),
		grpc.SharedWriteBuffer(true),
		grpc.InitialWindowSize(streamWindow),
		grpc.InitialConnWindowSize(connWindow),
	}
	if withTLS {
		opts = append(opts, grpc.Creds(TerminatedTLS()))
	}
	return opts
}
