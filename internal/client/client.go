// Package client is the Go client of the authority's gRPC API: tables
// (create, join, start), a seat's session that follows its event stream and
// acts, and a spectator's session. It is its own package because every Go
// client shares it - `tablectl play`, `watch` and `bots`, and the tests that
// play over a real connection (crash tests included) - and because what it
// gets right once must not be redone by each: a dropped stream or a
// restarted server is resumed with after_seq (nothing missed, nothing
// repeated), an action is retried with the same request id until the
// server answers (so it is applied once), sequence numbers are checked, and
// the wire is translated to the table's types so that bots and renderers
// work on a *table.View.
//
// The session is the same for every rule set (GameSession); a rule set
// brings its side as a Game: its wire decoding and the tracker that keeps
// a seat's view. Riichi's (Riichi, Tracker) is here, and Session, Follow
// and Watch are riichi's; another rule set's lives in a package beside
// this one and calls FollowGame and WatchGame.
//
// A seat's session has a StreamEvents stream and Act calls of its own, or
// shares a Mux (Options.Mux): one TableService.Multiplex stream carrying
// many seats, with the same resumes, retries and errors (mux.go).
package client

import (
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client/retry"
	"github.com/mahjong-authority/authority/internal/table"
)

// Client talks to one server.
type Client struct {
	conn       *grpc.ClientConn // nil when the caller owns the connection
	Tables     pb.TableServiceClient
	Judge      pb.JudgeServiceClient
	retry      Backoff
	nThrottled atomic.Int64
	// redial connects to another node of a cluster with the options of
	// Dial (nil for a client on a connection of the caller's): how a Mux
	// reaches a table's owner.
	redial func(addr string) (*grpc.ClientConn, error)
}

// Backoff is how long to wait between attempts while the server is
// unreachable (package retry, shared with the other games' clients).
type Backoff = retry.Backoff

// DefaultBackoff retries quickly at first and every two seconds at most, so
// that a restarted server is found within about two seconds.
var DefaultBackoff = retry.DefaultBackoff

// Dial connects to a server at addr (host:port) without TLS. The
// connection redials by itself with a short backoff, so that sessions find
// a restarted server quickly. Close releases it.
func Dial(addr string, opts ...grpc.DialOption) (*Client, error) {
	conn, r, err := dialConn(addr, opts)
	if err != nil {
		return nil, err
	}
	c := New(conn)
	c.conn, c.redial = conn, r.dial
	return c, nil
}

// DialConn is the connection Dial makes, for the clients of the other
// games served on the same port. It follows a cluster's TABLE_ELSEWHERE
// to the table's owner (redirect.go).
func DialConn(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	conn, _, err := dialConn(addr, opts)
	return conn, err
}

func dialConn(addr string, opts []grpc.DialOption) (*grpc.ClientConn, redirects, error) {
	opts = append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithConnectParams(grpc.ConnectParams{
			Backoff:           backoff.Config{BaseDelay: 50 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 2 * time.Second},
			MinConnectTimeout: 2 * time.Second,
		}),
	}, opts...)
	// Following a cluster's redirects (redirect.go) with the same options.
	r := redirects{opts: opts}
	opts = append(opts, grpc.WithChainUnaryInterceptor(r.unary), grpc.WithChainStreamInterceptor(r.stream))
	conn, err := grpc.NewClient(addr, opts...)
	if err != nil {
		return nil, r, fmt.Errorf("dial %s: %w", addr, err)
	}
	return conn, r, nil
}

// LeanTransport are dial options for a process that holds many
// connections or many streams of small messages (a load generator, a room
// backend multiplexing seats): small read and write buffers per
// connection (the write buffer taken from a pool only while there is
// something to write) and fixed flow-control windows, which turn off
// grpc-go's BDP pings. grpc-go's defaults (32 KiB buffers held by every
// connection, growing windows) suit a few connections moving large
// messages.
func LeanTransport() []grpc.DialOption {
	return []grpc.DialOption{
		grpc.WithReadBufferSize(8 << 10),
		grpc.WithWriteBufferSize(16 << 10),
		grpc.WithSharedWriteBuffer(true),
		grpc.WithInitialWindowSize(64 << 10),
		grpc.WithInitialConnWindowSize(1 << 20),
	}
}

// New returns a client on a connection the caller owns.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{Tables: pb.NewTableServiceClient(cc), Judge: pb.NewJudgeServiceClient(cc), retry: DefaultBackoff}
}

// Close closes the connection Dial opened.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// Retryable reports whether an RPC error may go away by itself: the server
// is unreachable, restarting or stopping (Unavailable), or asks the client
// to slow down (ResourceExhausted). Anything else is the server's answer.
func Retryable(err error) bool { return retry.Retryable(err) }

// RetryDelay is the delay a rate-limited request was told to wait
// (google.rpc.RetryInfo): the server takes the same request after it. ok is
// false for any other error. A rate-limited request was not run at all, so
// sending it again is safe even for calls that are not retried otherwise
// (CreateTable, JoinTable).
func RetryDelay(err error) (d time.Duration, ok bool) { return retry.Delay(err) }

// loop is the client's retry loop: its backoff, and every wait of a rate
// limit counted in Throttled.
func (c *Client) loop() retry.Loop {
	return retry.Loop{Backoff: c.retry, OnThrottle: func() { c.nThrottled.Add(1) }}
}

// Throttled counts the calls of this client, sessions included, that a
// rate limit refused and that were sent again after the delay the server
// gave: not failures, the server's pacing.
func (c *Client) Throttled() int64 { return c.nThrottled.Load() }

// errorDomain is the domain of the API's google.rpc.ErrorInfo details.
const errorDomain = "authority.mahjong"

// Reason is the machine-readable reason of an API error (its
// google.rpc.ErrorInfo), or ERROR_REASON_UNSPECIFIED.
func Reason(err error) pb.ErrorReason {
	st, ok := status.FromError(err)
	if !ok {
		return pb.ErrorReason_ERROR_REASON_UNSPECIFIED
	}
	for _, d := range st.Details() {
		if info, ok := d.(*errdetails.ErrorInfo); ok && info.GetDomain() == errorDomain {
			return pb.ErrorReason(pb.ErrorReason_value[info.GetReason()])
		}
	}
	return pb.ErrorReason_ERROR_REASON_UNSPECIFIED
}

// retryIdempotent runs an RPC that may safely run twice until it succeeds,
// fails for good, or ctx ends.
// A rate-limited attempt is sent again after the delay the server gave.
func (c *Client) retryIdempotent(ctx context.Context, f func() error) error {
	return c.loop().Resend(ctx, f)
}

// retryThrottled runs a call that must not run twice until it succeeds
// or fails other than by a rate limit, which refused it before it ran.
func (c *Client) retryThrottled(ctx context.Context, f func() error) error {
	return c.loop().Paced(ctx, f)
}

// CreateTable opens a table and returns it with its owner token. It is not
// retried (a retry could open a second table), unless a rate limit
// refused it.
func (c *Client) CreateTable(ctx context.Context, set *pb.TableSettings) (*pb.Table, string, error) {
	var r *pb.CreateTableResponse
	err := c.retryThrottled(ctx, func() (err error) {
		r, err = c.Tables.CreateTable(ctx, &pb.CreateTableRequest{Settings: set})
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("create table: %w", err)
	}
	return r.GetTable(), r.GetOwnerToken(), nil
}

// Seat is a seat a player holds: its table, number and secret token, and
// the entropy the player sent when joining.
type Seat struct {
	TableID string
	Seat    table.Seat
	Token   string
	Entropy []byte
}

// Entropy returns 32 bytes from the OS's cryptographic random source, for
// JoinTable: a player who sends entropy of their own knows the server
// could not have chosen the walls alone (docs/fairness.md), and finds it
// again, in hex, in the game's record.
func Entropy() []byte {
	b := make([]byte, 32)
	crand.Read(b) // never fails
	return b
}

// JoinTable takes a free seat, sending entropy (at most 64 bytes, nil for
// none) to be mixed into the table seed. It is not retried (a retry could
// take a second seat), unless a rate limit refused it.
func (c *Client) JoinTable(ctx context.Context, tableID, name string, entropy []byte) (Seat, error) {
	var r *pb.JoinTableResponse
	err := c.retryThrottled(ctx, func() (err error) {
		r, err = c.Tables.JoinTable(ctx, &pb.JoinTableRequest{TableId: tableID, Name: name, Entropy: entropy})
		return err
	})
	if err != nil {
		return Seat{}, fmt.Errorf("join table %s: %w", tableID, err)
	}
	if r.GetSeat() >= table.NumSeats {
		return Seat{}, fmt.Errorf("join table %s: seat %d: %w", tableID, r.GetSeat(), ErrDecode)
	}
	return Seat{TableID: tableID, Seat: table.Seat(r.GetSeat()), Token: r.GetSeatToken(), Entropy: entropy}, nil
}

// StartTable starts a table with the owner token or a seat's. Retried while
// the server is unreachable; a table that a lost first attempt already
// started counts as started.
func (c *Client) StartTable(ctx context.Context, tableID, token string) error {
	tried := false
	err := c.retryIdempotent(ctx, func() error {
		_, err := c.Tables.StartTable(ctx, &pb.StartTableRequest{TableId: tableID, Token: token})
		if tried && Reason(err) == pb.ErrorReason_ERROR_REASON_ALREADY_STARTED {
			return nil
		}
		tried = true
		return err
	})
	if err != nil {
		return fmt.Errorf("start table %s: %w", tableID, err)
	}
	return nil
}

// GetTable describes a table, retried while the server is unreachable.
func (c *Client) GetTable(ctx context.Context, tableID string) (*pb.Table, error) {
	var t *pb.Table
	err := c.retryIdempotent(ctx, func() error {
		r, err := c.Tables.GetTable(ctx, &pb.GetTableRequest{TableId: tableID})
		t = r.GetTable()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("get table %s: %w", tableID, err)
	}
	return t, nil
}

// errNoStream is the cause of a stream that ended without its game's end.
var errNoStream = errors.New("client: stream ended before the game did")
