package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/google/uuid"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/client/retry"
	"github.com/mahjong-authority/authority/internal/table"
)

// Options tune a session. The zero value follows a seat from a snapshot
// with DefaultBackoff.
type Options struct {
	// AfterSeq starts the stream after this event: a seat then gets no
	// snapshot, and its view is built from the next deal on (events before
	// it are delivered but not checked against the view).
	AfterSeq uint64
	// Backoff between reconnection attempts and action retries; zero is
	// DefaultBackoff.
	Backoff Backoff
	// OnFault, if set, is told every inconsistency the session counts.
	OnFault func(error)
	// Mux, if set, carries a seat's session - its follow and its actions -
	// on the Mux's shared stream instead of a stream and calls of its
	// own; everything else is the same. Spectators do not use it.
	Mux *Mux
	// Wake, with Mux, is signalled (a token, never blocking) whenever
	// something comes for the seat, instead of a channel of the session's
	// own: one goroutine can serve several sessions, waiting on their
	// shared Wake and taking what came with TryNext, rather than one
	// goroutine a seat each waiting in Next. A session given a Wake is
	// read with TryNext only.
	Wake chan struct{}
}

// Stats counts what happened on a session.
type Stats struct {
	Events     int // events delivered
	Snapshots  int // snapshots delivered
	Reconnects int // streams reopened after a drop
	// StreamRetries counts the stream attempts that failed on the
	// server's or the connection's side and were retried: refused opens
	// included, which Reconnects does not count (no stream was dropped).
	StreamRetries int
	Faults        int // inconsistencies: sequence faults, undecodable events, events that do not fit the view
	ActRetries    int // action attempts repeated after Unavailable or a ResourceExhausted without a delay
	// Throttled counts the calls (actions and stream opens) that a rate
	// limit refused and that were sent again, unchanged, after the delay
	// the server gave (RetryDelay): the server's pacing, not a failure.
	Throttled int
}

// GameUpdate is what Next delivers: the view was reset from a snapshot, or
// an event was applied to it. B is the rule set's event body.
type GameUpdate[B any] struct {
	Snapshot bool
	Event    GameEvent[B] // when not Snapshot
	Received time.Time
	// Live: the event was logged after the stream it came on opened, so
	// Received - Event.Time is the server's delivery latency (events caught
	// up after a (re)connect are not live).
	Live bool
}

// Update is a riichi session's update.
type Update = GameUpdate[table.Body]

// Game is a rule set's side of a session: how its views and event bodies
// read from the wire, how its actions write, and the tracker that keeps a
// seat's view from the events. Everything else of a session - streams,
// resume, sequence checks, retries - is the same for every rule set.
// Riichi is riichi's.
type Game[A, V, B any, T GameTracker[V, B]] interface {
	// NewTracker returns the tracker of a seat, or of a spectator
	// (Spectator), before the first deal.
	NewTracker(seat table.Seat) T
	// ViewFromPB reads a seat's snapshot; BodyFromPB a game event (not a
	// seat notice). Errors wrap ErrDecode.
	ViewFromPB(v *pb.View, seq uint64) (V, error)
	BodyFromPB(e *pb.Event) (B, error)
	ActionToPB(a A) *pb.Action
	// SeatOf is the seat a view belongs to.
	SeatOf(v *V) table.Seat
	// RoundStarts reports whether b starts a round (the view is whole
	// from there), GameEnds whether it ends the game.
	RoundStarts(b B) bool
	GameEnds(b B) bool
}

// GameTracker keeps a seat's view up to date from its events (Tracker is
// riichi's).
type GameTracker[V, B any] interface {
	Reset(v V)
	Apply(b B) error
	View() *V
	// Answered records that the seat answered its offer.
	Answered()
}

// Session is a riichi session.
type Session = GameSession[table.Action, table.View, table.Body, *Tracker]

// GameSession follows one seat's event stream, or a spectator's, keeping a
// tracker's view up to date; a seat's session also acts. A dropped stream
// is reopened after the last event received (after_seq), with backoff while
// the server is unreachable, so a restarted server is resumed without
// missing or repeating anything. A session is used from one goroutine.
type GameSession[A, V, B any, T GameTracker[V, B]] struct {
	game      Game[A, V, B, T]
	c         *Client
	seat      Seat
	spectator bool
	opts      Options

	stream   receiver
	sctx     context.Context // the stream's: ended on the client's side when Err is set
	cancel   context.CancelFunc
	openedAt time.Time
	opened   int            // streams opened
	reopen   retry.Reopener // paces the stream's (re)opening

	last     uint64 // seq of the last snapshot or event received
	tracker  T
	known    bool   // the tracker's view is whole: from the start, a snapshot or a deal
	over     bool   // the game's end was received
	done     bool   // and the stream ended after it
	idPrefix string // of the request ids: a UUID and a dash
	requests uint64
	stats    Stats
	// The action side, which Send may run on another goroutine than
	// Next's: its retry loop (built once, not per call) and its counts.
	actLoop      retry.Loop
	actRetries   atomic.Int64
	actThrottled atomic.Int64
	// owner is the Mux of the table's owner that a redirect moved the
	// session to (nil: Options.Mux); hops counts the stream's redirects
	// in a row, with no event and no other error between them.
	owner atomic.Pointer[Mux]
	hops  int
}

// maxHops bounds the redirects in a row, of a table whose owner keeps
// changing (or of nodes that disagree about it).
const maxHops = 3

// mux is the Mux the session's follow and actions go to.
func (s *GameSession[A, V, B, T]) mux() *Mux {
	if o := s.owner.Load(); o != nil {
		return o
	}
	return s.opts.Mux
}

// redirected moves the session to the owner's Mux if err is a
// TABLE_ELSEWHERE refusal from its Mux.
func (s *GameSession[A, V, B, T]) redirected(err error) bool {
	addr, ok := OwnerAddr(err)
	if !ok || s.opts.Mux == nil {
		return false
	}
	o, oerr := s.opts.Mux.owner(addr)
	if oerr != nil {
		return false
	}
	s.owner.Store(o)
	return true
}

// Follow returns the riichi session of a seat. Nothing is sent before the
// first Next.
func (c *Client) Follow(seat Seat, opts Options) *Session {
	return FollowGame[table.Action, table.View, table.Body, *Tracker](c, Riichi{}, seat, opts)
}

// Watch returns a spectator's riichi session of a table: public events
// only, delayed by the table's spectator delay, from the first (or after
// opts.AfterSeq).
func (c *Client) Watch(tableID string, opts Options) *Session {
	return WatchGame[table.Action, table.View, table.Body, *Tracker](c, Riichi{}, tableID, opts)
}

// FollowGame returns the session of a seat of a table of game g.
func FollowGame[A, V, B any, T GameTracker[V, B]](c *Client, g Game[A, V, B, T], seat Seat, opts Options) *GameSession[A, V, B, T] {
	return newSession(c, g, seat, false, opts)
}

// WatchGame returns a spectator's session of a table of game g.
func WatchGame[A, V, B any, T GameTracker[V, B]](c *Client, g Game[A, V, B, T], tableID string, opts Options) *GameSession[A, V, B, T] {
	return newSession(c, g, Seat{TableID: tableID, Seat: Spectator}, true, opts)
}

func newSession[A, V, B any, T GameTracker[V, B]](c *Client, g Game[A, V, B, T], seat Seat, spectator bool, opts Options) *GameSession[A, V, B, T] {
	if opts.Backoff == (Backoff{}) {
		opts.Backoff = c.retry
	}
	s := &GameSession[A, V, B, T]{
		game: g, c: c, seat: seat, spectator: spectator, opts: opts,
		last: opts.AfterSeq, tracker: g.NewTracker(seat.Seat), known: opts.AfterSeq == 0, idPrefix: uuid.NewString() + "-",
	}
	s.reopen.Loop = s.loop(&s.stats.StreamRetries)
	s.actLoop = retry.Loop{
		Backoff:    opts.Backoff,
		OnThrottle: func() { s.actThrottled.Add(1); s.c.nThrottled.Add(1) },
		OnRetry:    func() { s.actRetries.Add(1) },
	}
	return s
}

// loop is the session's retry loop: every rate limit's wait counted in
// Throttled (the session's and the client's), every backoff in *retries.
func (s *GameSession[A, V, B, T]) loop(retries *int) retry.Loop {
	return retry.Loop{
		Backoff:    s.opts.Backoff,
		OnThrottle: func() { s.stats.Throttled++; s.c.nThrottled.Add(1) },
		OnRetry:    func() { *retries++ },
	}
}

// Seat is the seat the session follows (Seat is Spectator for a spectator).
func (s *GameSession[A, V, B, T]) Seat() Seat { return s.seat }

// View is the seat's current view (see Tracker.View).
func (s *GameSession[A, V, B, T]) View() *V { return s.tracker.View() }

// Tracker is the session's tracker.
func (s *GameSession[A, V, B, T]) Tracker() T { return s.tracker }

// LastSeq is the sequence number of the last snapshot or event received:
// what Act sends as last_seq and a reconnection as after_seq.
func (s *GameSession[A, V, B, T]) LastSeq() uint64 { return s.last }

// GameOver reports whether the game's end was received.
func (s *GameSession[A, V, B, T]) GameOver() bool { return s.over }

// Stats returns the session's counts.
func (s *GameSession[A, V, B, T]) Stats() Stats {
	st := s.stats
	st.ActRetries += int(s.actRetries.Load())
	st.Throttled += int(s.actThrottled.Load())
	return st
}

// receiver is a stream of either kind.
type receiver interface {
	recv() (*pb.Snapshot, *pb.Event, error)
}

type seatStream struct {
	pb.TableService_StreamEventsClient
}

func (r seatStream) recv() (*pb.Snapshot, *pb.Event, error) {
	m, err := r.Recv()
	return m.GetSnapshot(), m.GetEvent(), err
}

type watchStream struct {
	pb.TableService_SpectateClient
}

func (r watchStream) recv() (*pb.Snapshot, *pb.Event, error) {
	m, err := r.Recv()
	return nil, m.GetEvent(), err
}

// open starts a stream after the last event received.
func (s *GameSession[A, V, B, T]) open(ctx context.Context) error {
	sctx, cancel := context.WithCancel(ctx)
	var err error
	if s.spectator {
		var st pb.TableService_SpectateClient
		st, err = s.c.Tables.Spectate(sctx, &pb.SpectateRequest{TableId: s.seat.TableID, AfterSeq: s.last})
		s.stream = watchStream{st}
	} else if req := (&pb.StreamEventsRequest{TableId: s.seat.TableID, SeatToken: s.seat.Token, AfterSeq: s.last}); s.opts.Mux != nil {
		var f *muxFollow
		m := s.mux()
		f, err = m.follow(sctx, req, s.opts.Wake)
		s.stream = f
		if err != nil && m != s.opts.Mux {
			// No stream to the owner's node: it may have died, and the
			// next attempt, paced, goes through the session's own Mux.
			s.owner.CompareAndSwap(m, nil)
			s.hops = 0
		}
	} else {
		var st pb.TableService_StreamEventsClient
		st, err = s.c.Tables.StreamEvents(sctx, req)
		s.stream = seatStream{st}
	}
	if err != nil {
		cancel()
		s.stream = nil
		return err
	}
	if s.opened > 0 {
		s.stats.Reconnects++
	}
	s.opened++
	s.sctx, s.cancel, s.openedAt = sctx, cancel, time.Now()
	return nil
}

func (s *GameSession[A, V, B, T]) closeStream() {
	if s.cancel != nil {
		s.cancel()
	}
	s.stream, s.cancel = nil, nil
}

// Drop cuts the current stream, as a lost connection would: the next Next
// reopens it after the last event received.
func (s *GameSession[A, V, B, T]) Drop() { s.closeStream() }

// Close ends the session's stream.
func (s *GameSession[A, V, B, T]) Close() { s.closeStream() }

func (s *GameSession[A, V, B, T]) fault(err error) {
	s.stats.Faults++
	if s.opts.OnFault != nil {
		s.opts.OnFault(err)
	}
}

// Next waits for the next snapshot or event, applies it to the view and
// returns it. A dropped stream is reopened (after the last event received)
// until ctx ends. After the game's last event it returns io.EOF. The stream
// lives in the context of the Next call that opened it.
func (s *GameSession[A, V, B, T]) Next(ctx context.Context) (GameUpdate[B], error) {
	u, _, err := s.next(ctx, true)
	return u, err
}

// TryNext is Next without the wait for something to come on a Mux: ok is
// false when nothing has come yet (Options.Wake is signalled when
// something does). Opening or reopening the stream still waits. Without a
// Mux it waits as Next does.
func (s *GameSession[A, V, B, T]) TryNext(ctx context.Context) (u GameUpdate[B], ok bool, err error) {
	return s.next(ctx, false)
}

// next is Next, or TryNext without wait.
func (s *GameSession[A, V, B, T]) next(ctx context.Context, wait bool) (GameUpdate[B], bool, error) {
	for {
		if s.done {
			return GameUpdate[B]{}, false, io.EOF
		}
		if s.stream == nil {
			if err := s.reopen.Open(ctx, s.open); err != nil {
				if ctx.Err() != nil {
					return GameUpdate[B]{}, false, err
				}
				return GameUpdate[B]{}, false, fmt.Errorf("open stream: %w", err)
			}
		}
		var snap *pb.Snapshot
		var ev *pb.Event
		var err error
		if f, ok := s.stream.(*muxFollow); ok && !wait {
			if snap, ev, err = f.tryRecv(); err == errNothingYet {
				if ctx.Err() != nil {
					// Ended before the follow's own context heard of it
					// (its cancellation is on its way): the same end.
					s.closeStream()
					return GameUpdate[B]{}, false, ctx.Err()
				}
				return GameUpdate[B]{}, false, nil
			}
		} else {
			snap, ev, err = s.stream.recv()
		}
		now := time.Now()
		if errors.Is(err, io.EOF) {
			s.closeStream()
			if !s.over {
				return GameUpdate[B]{}, false, errNoStream
			}
			s.done = true
			return GameUpdate[B]{}, false, io.EOF
		}
		if err != nil {
			// A stream whose own context ended was cancelled here (by
			// the end of an earlier Next's context), not failed.
			cancelled := s.sctx.Err() != nil
			s.closeStream()
			if ctx.Err() != nil {
				return GameUpdate[B]{}, false, ctx.Err()
			}
			if s.opts.Mux != nil && !cancelled {
				if s.hops < maxHops && s.redirected(err) {
					s.hops++
					continue
				}
				// The owner's stream broke: its node may have died, and
				// the session's own Mux knows where the table is now.
				// The next attempt is paced by the backoff: the
				// redirects after it count anew.
				s.owner.Store(nil)
				s.hops = 0
			}
			if again, werr := s.reopen.Broke(ctx, err, cancelled); werr != nil {
				return GameUpdate[B]{}, false, werr
			} else if !again {
				return GameUpdate[B]{}, false, fmt.Errorf("stream: %w", err)
			}
			continue
		}
		s.reopen.Received()
		s.hops = 0
		switch {
		case snap != nil:
			if u, ok := s.snapshot(snap, now); ok {
				return u, true, nil
			}
		case ev != nil:
			if u, ok := s.event(ev, now); ok {
				return u, true, nil
			}
		default:
			s.fault(fmt.Errorf("empty stream message: %w", ErrDecode))
		}
	}
}

func (s *GameSession[A, V, B, T]) snapshot(snap *pb.Snapshot, now time.Time) (GameUpdate[B], bool) {
	v, err := s.game.ViewFromPB(snap.GetView(), snap.GetSeq())
	switch {
	case err != nil:
		s.fault(fmt.Errorf("snapshot: %w", err))
		return GameUpdate[B]{}, false
	case s.spectator || s.game.SeatOf(&v) != s.seat.Seat && s.opened > 1:
		s.fault(fmt.Errorf("snapshot of seat %d on the stream of seat %d: %w", s.game.SeatOf(&v), s.seat.Seat, ErrInconsistent))
		return GameUpdate[B]{}, false
	case snap.GetSeq() < s.last:
		s.fault(&SeqError{Fault: SeqBack, Prev: s.last, Seq: snap.GetSeq()})
	}
	s.seat.Seat = s.game.SeatOf(&v)
	s.tracker.Reset(v)
	// The server sends a standing offer again as the event right after
	// the snapshot: the seat acts on that, once, as on any offer.
	s.tracker.Answered()
	s.known = true
	s.last = snap.GetSeq()
	s.stats.Snapshots++
	return GameUpdate[B]{Snapshot: true, Received: now}, true
}

func (s *GameSession[A, V, B, T]) event(ev *pb.Event, now time.Time) (GameUpdate[B], bool) {
	e, err := eventFromPB(ev, s.game.BodyFromPB)
	if err != nil {
		s.fault(err)
		if ev.GetSeq() > s.last {
			s.last = ev.GetSeq() // not asked for again on a reconnection
		}
		return GameUpdate[B]{}, false
	}
	// The one sequence check (see CheckSeq): a repeat or a step back is
	// dropped, never applied twice; a gap is counted and the event applied.
	switch f := CheckSeq(s.last, e.Seq); f {
	case SeqRepeat, SeqBack:
		s.fault(&SeqError{Fault: f, Prev: s.last, Seq: e.Seq})
		return GameUpdate[B]{}, false
	case SeqGap:
		s.fault(&SeqError{Fault: f, Prev: s.last, Seq: e.Seq})
	}
	s.last = e.Seq
	if e.Notice == nil {
		if s.game.RoundStarts(e.Body) {
			s.known = true
		}
		if err := s.tracker.Apply(e.Body); err != nil && s.known {
			s.fault(fmt.Errorf("event %d: %w", e.Seq, err))
		}
		if s.game.GameEnds(e.Body) {
			s.over = true
		}
	}
	s.stats.Events++
	return GameUpdate[B]{Event: e, Received: now, Live: !e.Time.Before(s.openedAt)}, true
}

// Act plays an action for the seat with the last sequence number received
// and a fresh request id. While the server is unreachable or rate-limits
// the seat, the same request (same id, same last_seq) is sent again with
// backoff, so the action is applied at most once; any other refusal is
// returned (see Reason). A rate-limited attempt is sent again after
// exactly the delay the server gave (RetryDelay), counted in
// Stats.Throttled. After a success the seat has nothing to do until its
// next offer.
func (s *GameSession[A, V, B, T]) Act(ctx context.Context, a A) (uint64, error) {
	p, err := s.prepare(a)
	if err != nil {
		return 0, err
	}
	seq, err := s.Send(ctx, p)
	if err == nil {
		s.tracker.Answered()
	}
	return seq, err
}

// Prepared is an action made ready by Prepare: its request, numbered,
// with the sequence number of the view it answers.
type Prepared struct {
	req *pb.ActRequest
}

// Prepare makes an action ready to Send later, possibly on another
// goroutine, as a person who has decided takes a moment to click: the
// request carries the last sequence number received now and a fresh
// request id. The seat has answered its offer from then on (the view's
// Legal is cleared), whether or not the action is sent.
func (s *GameSession[A, V, B, T]) Prepare(a A) (Prepared, error) {
	p, err := s.prepare(a)
	if err == nil {
		s.tracker.Answered()
	}
	return p, err
}

func (s *GameSession[A, V, B, T]) prepare(a A) (Prepared, error) {
	if s.spectator {
		return Prepared{}, errors.New("client: a spectator cannot act")
	}
	s.requests++
	return Prepared{req: &pb.ActRequest{
		TableId: s.seat.TableID, SeatToken: s.seat.Token, LastSeq: s.last,
		RequestId: string(strconv.AppendUint([]byte(s.idPrefix), s.requests, 10)), Action: s.game.ActionToPB(a),
	}}, nil
}

// Send sends a prepared action as Act does (the same retries, counted in
// the session's Stats). It may run on another goroutine than Next, once
// at a time: it reads nothing Next changes.
func (s *GameSession[A, V, B, T]) Send(ctx context.Context, p Prepared) (uint64, error) {
	req := p.req
	if req == nil {
		return 0, errors.New("client: send of an action not prepared")
	}
	var seq uint64
	err := s.actLoop.Resend(ctx, func() (err error) {
		if s.opts.Mux != nil {
			m := s.mux()
			seq, err = m.act(ctx, req)
			for hops := 0; err != nil && hops < maxHops && s.redirected(err); hops++ {
				m = s.mux()
				seq, err = m.act(ctx, req)
			}
			if m != s.opts.Mux && Retryable(err) {
				// As for the follow: the next attempt through the
				// session's own Mux.
				s.owner.CompareAndSwap(m, nil)
			}
			return err
		}
		r, err := s.c.Tables.Act(ctx, req)
		seq = r.GetSeq()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("act %v at %d: %w", req.GetAction().GetType(), req.LastSeq, err)
	}
	return seq, nil
}
