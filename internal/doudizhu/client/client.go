// Package client is a Go client of Dou Dizhu tables
// (doudizhu.authority.v1): table calls, and a Session that follows a seat's
// stream (or a spectator's) keeping the seat's view, resumes a dropped
// stream after the last event received, checks every sequence number, and
// sends an action again with the same request id while the server is
// unreachable (with backoff) or rate-limits the seat (after exactly the
// delay it gives). The retries, backoff and stream reopening are package
// internal/client/retry's, shared with the mahjong client, and the
// sequence check is internal/client's; its own part is the Dou Dizhu wire.
package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
	"google.golang.org/grpc"

	pb "github.com/mahjong-authority/authority/gen/doudizhu/authority/v1"
	mclient "github.com/mahjong-authority/authority/internal/client"
	"github.com/mahjong-authority/authority/internal/client/retry"
	"github.com/mahjong-authority/authority/internal/doudizhu/table"
	"github.com/mahjong-authority/authority/internal/doudizhu/wire"
)

// Errors a session counts as faults.
var (
	ErrDecode       = errors.New("client: undecodable message")
	ErrInconsistent = errors.New("client: event does not fit the view")
	errNoStream     = errors.New("client: the stream ended before the match did")
)

// Client talks to one server's DoudizhuService.
type Client struct {
	conn       *grpc.ClientConn
	Tables     pb.DoudizhuServiceClient
	Backoff    retry.Backoff
	nThrottled atomic.Int64
}

// Dial connects to addr as internal/client.Dial does. Close releases the
// connection.
func Dial(addr string, opts ...grpc.DialOption) (*Client, error) {
	conn, err := mclient.DialConn(addr, opts...)
	if err != nil {
		return nil, err
	}
	c := New(conn)
	c.conn = conn
	return c, nil
}

// Close closes the connection Dial opened.
func (c *Client) Close() error {
	if c.conn == nil {
		return nil
	}
	return c.conn.Close()
}

// New returns a client on a connection the caller owns.
func New(cc grpc.ClientConnInterface) *Client {
	return &Client{Tables: pb.NewDoudizhuServiceClient(cc), Backoff: retry.DefaultBackoff}
}

// Throttled counts the calls of this client, sessions included, that a
// rate limit refused and that were sent again after the delay the server
// gave: not failures, the server's pacing.
func (c *Client) Throttled() int64 { return c.nThrottled.Load() }

// loop is the client's retry loop: every wait of a rate limit counted in
// Throttled.
func (c *Client) loop() retry.Loop {
	return retry.Loop{Backoff: c.Backoff, OnThrottle: func() { c.nThrottled.Add(1) }}
}

// Seat is a seat at a table: the table, the seat and its token.
type Seat struct {
	TableID string
	Seat    table.Seat
	Token   string
}

// JoinTable takes a seat with fresh entropy. It is not retried (a retry
// could take a second seat), unless a rate limit refused it.
func (c *Client) JoinTable(ctx context.Context, tableID, name string) (Seat, error) {
	req := &pb.JoinTableRequest{TableId: tableID, Name: name, Entropy: mclient.Entropy()}
	var r *pb.JoinTableResponse
	err := c.loop().Paced(ctx, func() (err error) {
		r, err = c.Tables.JoinTable(ctx, req)
		return err
	})
	if err != nil {
		return Seat{}, fmt.Errorf("join %s: %w", tableID, err)
	}
	return Seat{TableID: tableID, Seat: table.Seat(r.GetSeat()), Token: r.GetSeatToken()}, nil
}

// Stats counts what happened on a session.
type Stats = mclient.Stats

// Update is what Next delivers: a snapshot that reset the view, or an
// event applied to it.
type Update struct {
	Snapshot *pb.Snapshot
	Event    *pb.Event
	Received time.Time
	// Live: the event was logged after the stream it came on opened, so
	// Received - its time is the server's delivery latency.
	Live bool
}

// Session follows one seat's stream, or a spectator's. Used from one
// goroutine.
type Session struct {
	c         *Client
	seat      Seat
	spectator bool
	onFault   func(error)

	stream   func() (*pb.Snapshot, *pb.Event, error)
	cancel   context.CancelFunc
	sctx     context.Context
	opened   int
	openedAt time.Time
	reopen   retry.Reopener // paces the stream's (re)opening

	last     uint64
	tracker  *Tracker
	over     bool
	done     bool
	idPrefix string
	requests uint64
	stats    Stats
}

// Follow returns the session of a seat; onFault, if set, is told every
// inconsistency.
func (c *Client) Follow(s Seat, onFault func(error)) *Session {
	return c.session(&Session{seat: s, onFault: onFault, tracker: NewTracker(s.Seat)})
}

// session completes a new session of this client: its request ids'
// prefix and its retry loops.
func (c *Client) session(s *Session) *Session {
	s.c, s.idPrefix = c, uuid.NewString()
	s.reopen.Loop = s.loop(&s.stats.StreamRetries)
	return s
}

// loop is the session's retry loop: every rate limit's wait counted in
// Throttled (the session's and the client's), every backoff in *retries.
func (s *Session) loop(retries *int) retry.Loop {
	return retry.Loop{
		Backoff:    s.c.Backoff,
		OnThrottle: func() { s.stats.Throttled++; s.c.nThrottled.Add(1) },
		OnRetry:    func() { *retries++ },
	}
}

// Resume returns the session of a seat that goes on after event afterSeq
// with the view it kept (a client restarted, or a session moved to a new
// connection): no snapshot is sent.
func (c *Client) Resume(s Seat, afterSeq uint64, v table.View, onFault func(error)) *Session {
	ss := c.Follow(s, onFault)
	ss.last = afterSeq
	ss.tracker.Reset(v)
	return ss
}

// Watch returns a spectator's session of a table.
func (c *Client) Watch(tableID string, onFault func(error)) *Session {
	return c.session(&Session{seat: Seat{TableID: tableID}, spectator: true, onFault: onFault, tracker: NewTracker(table.NumSeats)})
}

// View is the seat's view as the session keeps it.
func (s *Session) View() *table.View { return s.tracker.View() }

// LastSeq is the seq of the last snapshot or event received.
func (s *Session) LastSeq() uint64 { return s.last }

// Over reports whether the match's end was received.
func (s *Session) Over() bool { return s.over }

// Stats are the session's counts.
func (s *Session) Stats() Stats { return s.stats }

// Drop cuts the stream, as a lost connection would.
func (s *Session) Drop() { s.closeStream() }

// Close ends the session's stream.
func (s *Session) Close() { s.closeStream() }

func (s *Session) closeStream() {
	if s.cancel != nil {
		s.cancel()
	}
	s.stream, s.cancel = nil, nil
}

func (s *Session) fault(err error) {
	s.stats.Faults++
	if s.onFault != nil {
		s.onFault(err)
	}
}

func (s *Session) open(ctx context.Context) error {
	sctx, cancel := context.WithCancel(ctx)
	if s.spectator {
		st, err := s.c.Tables.Spectate(sctx, &pb.SpectateRequest{TableId: s.seat.TableID, AfterSeq: s.last})
		if err != nil {
			cancel()
			return err
		}
		s.stream = func() (*pb.Snapshot, *pb.Event, error) { m, err := st.Recv(); return nil, m.GetEvent(), err }
	} else {
		st, err := s.c.Tables.StreamEvents(sctx, &pb.StreamEventsRequest{TableId: s.seat.TableID, SeatToken: s.seat.Token, AfterSeq: s.last})
		if err != nil {
			cancel()
			return err
		}
		s.stream = func() (*pb.Snapshot, *pb.Event, error) {
			m, err := st.Recv()
			return m.GetSnapshot(), m.GetEvent(), err
		}
	}
	if s.opened > 0 {
		s.stats.Reconnects++
	}
	s.opened++
	s.sctx, s.cancel, s.openedAt = sctx, cancel, time.Now()
	return nil
}

// Next waits for the next snapshot or event and applies it to the view. A
// dropped stream is reopened after the last event received, with backoff,
// until ctx ends. After the match's last event it returns io.EOF.
func (s *Session) Next(ctx context.Context) (Update, error) {
	for {
		if s.done {
			return Update{}, io.EOF
		}
		if s.stream == nil {
			if err := s.reopen.Open(ctx, s.open); err != nil {
				if ctx.Err() != nil {
					return Update{}, err
				}
				return Update{}, fmt.Errorf("open stream: %w", err)
			}
		}
		snap, ev, err := s.stream()
		now := time.Now()
		if errors.Is(err, io.EOF) {
			s.closeStream()
			if !s.over {
				return Update{}, errNoStream
			}
			s.done = true
			return Update{}, io.EOF
		}
		if err != nil {
			cancelled := s.sctx.Err() != nil
			s.closeStream()
			if ctx.Err() != nil {
				return Update{}, ctx.Err()
			}
			if again, werr := s.reopen.Broke(ctx, err, cancelled); werr != nil {
				return Update{}, werr
			} else if !again {
				return Update{}, fmt.Errorf("stream: %w", err)
			}
			continue
		}
		s.reopen.Received()
		switch {
		case snap != nil:
			v, err := ViewFromPB(snap.GetView(), snap.GetSeq())
			if err != nil || v.Seat != s.seat.Seat || s.spectator {
				s.fault(fmt.Errorf("snapshot of seat %d on seat %d's stream: %w %v", v.Seat, s.seat.Seat, ErrInconsistent, err))
				continue
			}
			if snap.GetSeq() < s.last {
				s.fault(&mclient.SeqError{Fault: mclient.SeqBack, Prev: s.last, Seq: snap.GetSeq()})
			}
			s.tracker.Reset(v)
			s.last = snap.GetSeq()
			s.over = v.Phase == table.MatchOver
			s.stats.Snapshots++
			return Update{Snapshot: snap, Received: now}, nil
		case ev != nil:
			switch f := mclient.CheckSeq(s.last, ev.GetSeq()); f {
			case mclient.SeqRepeat, mclient.SeqBack:
				s.fault(&mclient.SeqError{Fault: f, Prev: s.last, Seq: ev.GetSeq()})
				continue
			case mclient.SeqGap:
				s.fault(&mclient.SeqError{Fault: f, Prev: s.last, Seq: ev.GetSeq()})
			}
			s.last = ev.GetSeq()
			if err := s.tracker.Apply(ev); err != nil {
				s.fault(fmt.Errorf("event %d: %w", ev.GetSeq(), err))
			}
			if ev.GetMatchEnded() != nil {
				s.over = true
			}
			s.stats.Events++
			return Update{Event: ev, Received: now, Live: !ev.GetTime().AsTime().Before(s.openedAt)}, nil
		default:
			s.fault(fmt.Errorf("empty stream message: %w", ErrDecode))
		}
	}
}

// MyTurn reports whether the seat is to act now, by the last offer it
// received.
func (s *Session) MyTurn() bool {
	v := s.tracker.View()
	return !s.spectator && v.ToAct == v.Seat && (v.Phase == table.Bidding && len(v.Legal) > 0 || v.Phase == table.Playing)
}

// Act plays an action with the last seq received and a fresh request id.
// While the server is unreachable the same request (same id, same
// last_seq) is sent again with backoff, counted in Stats.ActRetries; a
// rate-limited one is sent again after exactly the delay the server gave
// (RetryInfo), counted in Stats.Throttled. So it is applied at most once;
// any other refusal is returned.
func (s *Session) Act(ctx context.Context, a table.Action) (uint64, error) {
	if s.spectator {
		return 0, errors.New("client: a spectator cannot act")
	}
	s.requests++
	req := &pb.ActRequest{TableId: s.seat.TableID, SeatToken: s.seat.Token, LastSeq: s.last,
		RequestId: fmt.Sprintf("%s-%d", s.idPrefix, s.requests), Action: wire.ActionToPB(a)}
	var seq uint64
	err := s.loop(&s.stats.ActRetries).Resend(ctx, func() error {
		r, err := s.c.Tables.Act(ctx, req)
		seq = r.GetSeq()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("act %v at %d: %w", a.Type, req.LastSeq, err)
	}
	s.tracker.Answered()
	return seq, nil
}
