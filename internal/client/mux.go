package client

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client/retry"
)

// Mux carries the follows and actions of many seats, of any tables, over
// one TableService.Multiplex stream, as a gateway or a room backend does:
// a session whose Options name a Mux follows its seat and acts on it
// exactly as it would on a StreamEvents stream of its own and unary Act
// calls (snapshots, resume after the last seq, sequence checks, retries
// with the same request id), so a rule set's client code does not change
// with the transport.
//
// One goroutine reads the stream and hands each item to the session it is
// for: events and ends by the follow's ref, answers by the action's call
// number. Sends are serialised. When the stream drops, every follow on it
// ends with the stream's error, and the actions waiting for an answer get
// it too: the sessions then resume after their last seq and resend with
// the same request id, as over their own streams, and the first of them
// opens one new stream that all of them share. After a failed open (or a
// stream that broke before its first message) the next is tried after the
// client's Backoff, which every session needing the stream waits out, so a
// server that is down sees one attempt per Mux, not one per seat.
//
// A Mux opens its stream when the first session needs it and lives until
// Close or the end of the context given to Client.Mux. Spectators are not
// multiplexed (Multiplex follows seats): WatchGame ignores Options.Mux.
//
// In a cluster a Multiplex stream is served by the node it reaches, which
// refuses a follow or an action for a table another node owns with
// TABLE_ELSEWHERE and the owner's address (OwnerAddr). The session then
// goes on on a Mux of the owner's, which this Mux opens on a connection to
// the owner (dialled with the options of Dial) and shares among all its
// sessions of that owner's tables. When that stream breaks, the session's
// next attempt goes through this Mux again, which knows where the table is
// now: after a failover, another node.
type Mux struct {
	c      *Client
	ctx    context.Context // the Mux's lifetime: its streams live in it
	cancel context.CancelFunc
	wg     sync.WaitGroup // the goroutines opening and reading streams

	mu       sync.Mutex
	cur      *muxStream    // the stream open now; nil before the first and after a break
	opening  chan struct{} // closed when the open under way is done; nil when none is
	openErr  error         // why the last attempt failed
	retryAt  time.Time     // no new attempt before this after a failure
	failures int           // attempts failed in a row (a stream broken before its first message counts)
	closed   bool
	nextRef  uint32
	nextCall uint64
	owners   map[string]*Mux // the owners' Muxes by address, opened as redirects came
	// failFast: an owner's Mux, which answers at once while it waits to
	// try again after a failed attempt.
	failFast bool
}

// ErrMuxClosed is the error of a session's stream or action on a Mux that
// was closed.
var ErrMuxClosed = errors.New("client: mux closed")

// Mux returns a Mux on the client's connection. Nothing is sent before a
// session uses it. ctx bounds its streams; Close ends them sooner.
func (c *Client) Mux(ctx context.Context) *Mux {
	ctx, cancel := context.WithCancel(ctx)
	return &Mux{c: c, ctx: ctx, cancel: cancel}
}

// Close ends the Mux's stream: the sessions on it fail with ErrMuxClosed
// from then on. It waits for the Mux's goroutines to end.
func (m *Mux) Close() {
	m.mu.Lock()
	m.closed = true
	owners := m.owners
	m.owners = nil
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	for _, o := range owners {
		o.Close()
		o.c.Close()
	}
}

// errNoRedial: a client on a connection of the caller's cannot reach
// another node.
var errNoRedial = errors.New("client: no dial options to reach the owner (a client made with New)")

// owner is the Mux on a connection to addr, a table's owner, opened at the
// first redirect there and closed with m.
func (m *Mux) owner(addr string) (*Mux, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrMuxClosed
	}
	if o := m.owners[addr]; o != nil {
		return o, nil
	}
	if m.c.redial == nil {
		return nil, errNoRedial
	}
	conn, err := m.c.redial(addr)
	if err != nil {
		return nil, err
	}
	c := New(conn)
	c.conn, c.retry, c.redial = conn, m.c.retry, m.c.redial
	o := c.Mux(m.ctx)
	o.failFast = true
	if m.owners == nil {
		m.owners = map[string]*Mux{}
	}
	m.owners[addr] = o
	return o, nil
}

// muxStream is one Multiplex stream and what waits on it.
type muxStream struct {
	st     pb.TableService_MultiplexClient
	cancel context.CancelFunc
	sendMu sync.Mutex // a gRPC stream's Send is not safe for concurrent use
	// Guarded by Mux.mu: the follows whose end has not come, the actions
	// whose answer has not, and why the stream broke (nil while it works).
	follows map[uint32]*muxFollow
	calls   map[uint64]chan muxAnswer
	err     error
}

func (s *muxStream) send(r *pb.MultiplexRequest) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return s.st.Send(r)
}

// sendAct sends an action as muxCodec writes it (muxAct).
func (s *muxStream) sendAct(a *muxAct) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return s.st.SendMsg(a)
}

// muxAnswer is an action's answer: the server's, or the stream's error.
type muxAnswer struct {
	seq uint64
	err error
}

// stream returns the stream open now, opening one if there is none. While
// an attempt is under way the callers wait for it, and after a failed
// attempt for the backoff and the next attempt: one attempt for all.
func (m *Mux) stream(ctx context.Context) (*muxStream, error) {
	for {
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			return nil, ErrMuxClosed
		}
		if m.cur != nil {
			s := m.cur
			m.mu.Unlock()
			return s, nil
		}
		if m.opening == nil {
			if wait := time.Until(m.retryAt); wait > 0 && m.failFast {
				// An owner's Mux: the session goes back to its own,
				// which knows whether the table moved.
				err := m.openErr
				m.mu.Unlock()
				return nil, err
			} else if wait > 0 {
				m.mu.Unlock()
				if err := retry.Sleep(ctx, wait); err != nil {
					return nil, err
				}
				continue
			}
			m.opening = make(chan struct{})
			m.wg.Add(1)
			go m.open(m.opening)
		}
		ch := m.opening
		m.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		m.mu.Lock()
		s, err := m.cur, m.openErr
		m.mu.Unlock()
		if s == nil {
			if err == nil {
				err = status.Error(codes.Unavailable, "client: multiplex stream broke as it opened")
			}
			return nil, err
		}
	}
}

// open opens a stream in the Mux's context, and closes done.
func (m *Mux) open(done chan struct{}) {
	defer m.wg.Done()
	sctx, cancel := context.WithCancel(m.ctx)
	st, err := m.c.Tables.Multiplex(sctx, grpc.ForceCodecV2(muxCodec{}))
	m.mu.Lock()
	if err != nil {
		cancel()
		m.failed(err)
	} else {
		s := &muxStream{st: st, cancel: cancel, follows: map[uint32]*muxFollow{}, calls: map[uint64]chan muxAnswer{}}
		m.cur, m.openErr = s, nil
		m.wg.Add(1)
		go m.read(s)
	}
	m.opening = nil
	m.mu.Unlock()
	close(done)
}

// failed notes a failed attempt; the caller holds mu.
func (m *Mux) failed(err error) {
	m.failures++
	m.openErr = err
	m.retryAt = time.Now().Add(m.c.retry.Wait(m.failures - 1))
}

// read hands out what the stream brings until it breaks.
func (m *Mux) read(s *muxStream) {
	defer m.wg.Done()
	defer s.cancel()
	received := false
	var f muxFrame // its items reused; its bytes new each time
	for {
		if err := s.st.RecvMsg(&f); err != nil {
			m.broke(s, err, received)
			return
		}
		m.mu.Lock()
		if !received {
			received, m.failures = true, 0
		}
		for i := range f.items {
			m.dispatch(s, &f.items[i])
		}
		m.mu.Unlock()
		clear(f.items) // nothing of this frame kept here
	}
}

// dispatch hands one item to whom it is for; the caller holds mu. Items
// of follows and calls no longer waited for are dropped.
func (m *Mux) dispatch(s *muxStream, it *muxItem) {
	switch it.kind {
	case itemEvent:
		if f := s.follows[it.ref]; f != nil && !f.unfollowed {
			f.push(muxEntry{snap: it.snap, event: it.event})
		}
	case itemAnswer:
		ch, ok := s.calls[it.call]
		if !ok {
			return
		}
		delete(s.calls, it.call)
		ch <- answerOf(it)
	case itemEnd:
		if f := s.follows[it.ref]; f != nil {
			delete(s.follows, it.ref)
			f.finish(endError(it.st))
		}
	}
}

// answerOf is an action's answer as Act would have returned it: its
// sequence number, or the status error with its details (ErrorInfo,
// RetryInfo), so that Reason, RetryDelay and Retryable read it alike.
func answerOf(it *muxItem) muxAnswer {
	if err := status.ErrorProto(it.st); err != nil {
		return muxAnswer{err: err}
	}
	return muxAnswer{seq: it.seq}
}

// endError is the error a follow's end makes its stream's receive return:
// io.EOF after the game's last event, as a StreamEvents stream's.
func endError(st *spb.Status) error {
	if err := status.ErrorProto(st); err != nil {
		return err
	}
	return io.EOF
}

// broke ends everything that waited on a stream with its error. A stream
// that ended without an error was cut by the server (one shutting down),
// which its seats see as Unavailable: they resume.
func (m *Mux) broke(s *muxStream, err error, received bool) {
	if errors.Is(err, io.EOF) {
		err = status.Error(codes.Unavailable, "client: multiplex stream ended")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.cur == s {
		m.cur = nil
	}
	if !received {
		m.failed(err)
	}
	s.err = err
	for ref, f := range s.follows {
		f.finish(err)
		delete(s.follows, ref)
	}
	for call, ch := range s.calls {
		ch <- muxAnswer{err: err}
		delete(s.calls, call)
	}
}

// follow follows a seat on the stream, the follow living in ctx: when ctx
// ends, the seat is unfollowed and its receive returns Canceled.
// wake, if not nil, is the channel signalled when something comes for the
// follow (Options.Wake), instead of one of its own.
func (m *Mux) follow(ctx context.Context, req *pb.StreamEventsRequest, wake chan struct{}) (*muxFollow, error) {
	s, err := m.stream(ctx)
	if err != nil {
		return nil, err
	}
	if wake == nil {
		wake = make(chan struct{}, 1)
	}
	f := &muxFollow{m: m, s: s, ctx: ctx, wake: wake}
	m.mu.Lock()
	if s.err != nil {
		// It broke since: the session opens again, on the next stream.
		err := s.err
		m.mu.Unlock()
		return nil, err
	}
	for {
		m.nextRef++
		if _, used := s.follows[m.nextRef]; m.nextRef != 0 && !used {
			break
		}
	}
	f.ref = m.nextRef
	s.follows[f.ref] = f
	m.mu.Unlock()
	// An error of Send means the stream broke: the reader ends the follow
	// with the stream's status, which its receive returns.
	_ = s.send(&pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Follow{Follow: &pb.MultiplexFollow{Ref: f.ref, Request: req}}})
	context.AfterFunc(ctx, f.unfollow)
	return f, nil
}

// act plays an action on the stream and waits for its answer.
func (m *Mux) act(ctx context.Context, req *pb.ActRequest) (uint64, error) {
	s, err := m.stream(ctx)
	if err != nil {
		return 0, err
	}
	ch := make(chan muxAnswer, 1)
	m.mu.Lock()
	if s.err != nil {
		err := s.err
		m.mu.Unlock()
		return 0, err
	}
	m.nextCall++
	call := m.nextCall
	s.calls[call] = ch
	m.mu.Unlock()
	// As in follow, a failed Send is answered by the reader.
	_ = s.sendAct(&muxAct{call: call, req: req})
	select {
	case a := <-ch:
		return a.seq, a.err
	case <-ctx.Done():
		m.mu.Lock()
		delete(s.calls, call)
		m.mu.Unlock()
		return 0, status.FromContextError(ctx.Err()).Err()
	}
}

// muxFollow is a seat followed on a Mux: the receiver of a session whose
// events come on the shared stream.
type muxFollow struct {
	m   *Mux
	s   *muxStream
	ref uint32
	ctx context.Context
	// unfollowed: the session left it, its events are dropped until its
	// end comes (guarded by Mux.mu).
	unfollowed bool

	mu    sync.Mutex
	q     []muxEntry // received, not yet taken: q[head:]
	head  int
	ended bool
	end   error
	wake  chan struct{} // a token when something came
}

// muxEntry is a snapshot or an event of a follow, encoded (both nil: an
// empty message).
type muxEntry struct{ snap, event []byte }

func (f *muxFollow) push(e muxEntry) {
	f.mu.Lock()
	f.q = append(f.q, e)
	f.mu.Unlock()
	f.signal()
}

func (f *muxFollow) finish(err error) {
	f.mu.Lock()
	f.ended, f.end = true, err
	f.mu.Unlock()
	f.signal()
}

func (f *muxFollow) signal() {
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

// recv returns the follow's next snapshot or event; after them its end:
// io.EOF after the game's last event, or the error it ended with (the
// stream's own when the stream broke); Canceled once its context ended.
func (f *muxFollow) recv() (*pb.Snapshot, *pb.Event, error) {
	for {
		snap, ev, err := f.tryRecv()
		if err != errNothingYet {
			return snap, ev, err
		}
		select {
		case <-f.wake:
		case <-f.ctx.Done():
			return nil, nil, status.FromContextError(f.ctx.Err()).Err()
		}
	}
}

// errNothingYet: nothing has come for the follow since it was last read.
var errNothingYet = errors.New("client: nothing received yet")

// tryRecv is recv without the wait: errNothingYet when there is nothing
// to return yet.
func (f *muxFollow) tryRecv() (*pb.Snapshot, *pb.Event, error) {
	f.mu.Lock()
	if f.head < len(f.q) {
		e := f.q[f.head]
		f.q[f.head] = muxEntry{}
		if f.head++; f.head == len(f.q) {
			f.q, f.head = f.q[:0], 0
		}
		f.mu.Unlock()
		return e.decode()
	}
	ended, end := f.ended, f.end
	f.mu.Unlock()
	switch {
	case ended:
		return nil, nil, end
	case f.ctx.Err() != nil:
		return nil, nil, status.FromContextError(f.ctx.Err()).Err()
	}
	return nil, nil, errNothingYet
}

// decode decodes the entry on the seat's goroutine. Bytes that do not
// decode are the error gRPC gives a stream's message that does not
// (Internal).
func (e muxEntry) decode() (*pb.Snapshot, *pb.Event, error) {
	var err error
	switch {
	case e.snap != nil:
		snap := &pb.Snapshot{}
		if err = proto.Unmarshal(e.snap, snap); err == nil {
			return snap, nil, nil
		}
	case e.event != nil:
		ev := &pb.Event{}
		if err = proto.Unmarshal(e.event, ev); err == nil {
			return nil, ev, nil
		}
	default:
		return nil, nil, nil
	}
	return nil, nil, status.Errorf(codes.Internal, "client: multiplex: failed to unmarshal the received message: %v", err)
}

// unfollow tells the server the seat is left, unless its follow already
// ended; its end (CANCELLED) comes later and is dropped.
func (f *muxFollow) unfollow() {
	f.m.mu.Lock()
	open := f.s.err == nil && f.s.follows[f.ref] == f && !f.unfollowed
	f.unfollowed = true
	f.m.mu.Unlock()
	if open {
		_ = f.s.send(&pb.MultiplexRequest{Kind: &pb.MultiplexRequest_Unfollow{Unfollow: &pb.MultiplexUnfollow{Ref: f.ref}}})
	}
}
