package server

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"time"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/encoded"
	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Multiplex serves many seats' follows and actions on one stream
// (docs/protocol.md, "One stream for many seats"). One goroutine reads the
// requests, and the handler's goroutine writes: it drains the follows
// that their tables woke into the stream's outbox, already encoded, and
// sends whatever the outbox holds at once as one MultiplexResponse. A
// follow is a feed of its table (host.Feed), with no goroutine of its own
// while it is caught up: a short-lived one opens it, and one reads the
// store for it while it catches up from there. Each action runs on one of
// the server's workers and puts its answer into the outbox
// (docs/serving.md, "Multiplex").
func (t *tableService) Multiplex(stream pb.TableService_MultiplexServer) error {
	m := newMux(t, stream)
	go m.read()
	return m.write()
}

// Multiplex's bounds.
const (
	// muxMaxActs bounds a stream's actions whose answer is not in its
	// outbox yet: past it the reader waits, and so does the client
	// (gRPC's flow control).
	muxMaxActs = 1024
	// muxFirstBuf is the size of an outbox's first buffer.
	muxFirstBuf = 4 << 10
)

// muxMaxOutbox bounds the bytes of events waiting in a stream's outbox:
// past it the writer drains no follow until it sent the outbox, so the
// tables' events wait in their logs for this client alone. Answers and
// ends are small and bounded by muxMaxActs and the follows; they never
// wait. (A variable for tests.)
var muxMaxOutbox = 256 << 10

// muxGather makes the writer yield once before it drains the follows and
// takes the outbox, so that what other goroutines are about to wake or
// send (the other seats' events of one action, its answer) goes out in
// the same message: measured with BenchmarkServeMultiplex
// (cmd/authority), from 3.7 messages an action to 0.2, and a sixth fewer
// allocations (docs/serving.md).
const muxGather = true

// mux is one Multiplex stream.
type mux struct {
	t      *tableService
	stream pb.TableService_MultiplexServer
	ctx    context.Context
	cancel context.CancelFunc
	slots  chan struct{} // one per action whose answer is not in the outbox
	pool   mem.BufferPool

	// bell wakes the writer, rung without waiting whenever it may have
	// work: something in the outbox, a follow woken or ready, the end.
	bell chan struct{}

	// The follows their tables woke and the actions' answers, not yet
	// taken by the writer (take): apart from mu, so that a table's
	// runner waking a follow, or a worker answering, never waits for a
	// drain (which holds mu while it encodes and copies events).
	wmu      sync.Mutex
	woken    []*muxFollow
	answers  []muxDone
	woken2   []*muxFollow // the other buffers, swapped at each take
	answers2 []muxDone
	stopped  bool // no action starts any more (closing, under wmu)

	mu      sync.Mutex
	out     *[]byte // the outbox: MultiplexResponse items, encoded; nil when empty
	events  int     // bytes of events in out
	follows map[uint32]*muxFollow
	seats   map[muxSeat]*muxSeatState // the seats with open follows or held answers
	ready   []*muxFollow              // follows their tables woke, to drain in that order
	dead    []*muxFollow              // follows ended whose feeds are still to close (bury)
	eof     bool                      // the client sends no more
	fail    error                     // ends the stream
	closing bool                      // nothing starts any more
	wg      sync.WaitGroup            // follows opening or reading the store, actions
}

// muxSeat names a seat as a request does: its table and its token.
type muxSeat struct{ table, token string }

// muxSeatState is a seat's open follows on the stream and its answers
// held for them. A follow points to its seat's, so that putting an event
// looks up no map (the two strings of a muxSeat hashed for every event).
type muxSeatState struct {
	follows []*muxFollow
	held    []muxAnswer // answers waiting for the follows
}

// muxFollow is one follow of the stream; its fields are under m.mu.
type muxFollow struct {
	m       *mux
	ref     uint32
	seat    muxSeat
	st      *muxSeatState // its seat's
	seq     uint64        // the last seq in the outbox (after_seq before any)
	ctx     context.Context
	cancel  context.CancelFunc        // ends its opening or its read of the store
	feed    ruleset.Feed              // nil while it opens
	release func()                    // its place among the server's open streams
	notify  func()                    // its wake, as its table calls it
	putMsg  func(proto.Message) error // its put, made once: a method value passed on allocates
	ready   bool                      // in m.ready
	woken   bool                      // in m.woken; under m.wmu
	busy    bool                      // a goroutine opens it or reads the store for it
	done    bool                      // its end is in the outbox
}

// muxDone is an action done, its answer for the writer to take.
type muxDone struct {
	call, seq uint64
	seat      muxSeat
	err       error
	read      time.Time // when its request was read
}

// muxAnswer is an accepted action's answer, held until the acting seat's
// follows on the stream are at its seq.
type muxAnswer struct {
	call, seq uint64
	read      time.Time
}

func newMux(t *tableService, stream pb.TableService_MultiplexServer) *mux {
	ctx, cancel := context.WithCancel(stream.Context())
	m := &mux{
		t: t, stream: stream, ctx: ctx, cancel: cancel,
		slots: make(chan struct{}, muxMaxActs), pool: mem.DefaultBufferPool(),
		follows: map[uint32]*muxFollow{}, seats: map[muxSeat]*muxSeatState{},
		bell: make(chan struct{}, 1),
	}
	return m
}

// ring wakes the writer, or leaves it to see the change when it next
// looks; it never waits.
func (m *mux) ring() {
	select {
	case m.bell <- struct{}{}:
	default:
	}
}

// read takes the client's requests until it half-closes, the stream
// fails or a request is malformed.
func (m *mux) read() {
	// One request, reused, decoded by merging (encoded.Merge) into the
	// messages of an action set in it, cleared, from the next muxCall:
	// an act's kind and MultiplexAct are then that call's, not two
	// allocations. Another kind, or a codec that resets (JSON), replaces
	// them with messages of its own; the call stays next. (Its request is
	// left to the decoder: one set in it would be there when the client
	// sent none, which is malformed.)
	req := &pb.MultiplexRequest{}
	into := &encoded.Merge{Message: req}
	var next *muxCall
	for {
		if next == nil {
			next = muxCalls.Get().(*muxCall)
		}
		next.preset(req)
		if err := m.stream.RecvMsg(into); err != nil {
			m.mu.Lock()
			if errors.Is(err, io.EOF) {
				m.eof = true
			} else if m.fail == nil {
				m.fail = err
			}
			m.mu.Unlock()
			m.ring()
			return
		}
		err := m.safely(func() error {
			switch k := req.GetKind().(type) {
			case *pb.MultiplexRequest_Follow:
				return m.follow(k.Follow)
			case *pb.MultiplexRequest_Unfollow:
				return m.unfollow(k.Unfollow.GetRef())
			case *pb.MultiplexRequest_Act:
				var c *muxCall
				if k == &next.kind {
					c, next = next, nil // the action is in its messages
				}
				return m.act(k.Act, c)
			}
			return fmt.Errorf("a request without a kind: %w", ErrMalformed)
		})
		if err != nil {
			m.mu.Lock()
			if m.fail == nil {
				m.fail = toStatus(err)
			}
			m.mu.Unlock()
			m.ring()
			return
		}
	}
}

// safely runs f on a goroutine of the stream that the recovery
// interceptor does not cover (the reader's, a follow's): a panic is f's
// INTERNAL error, logged as a handler's, and the server goes on.
func (m *mux) safely(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = m.t.s.recovered(m.ctx, p)
		}
	}()
	return f()
}

// follow starts a follow; its error is the malformed request's.
func (m *mux) follow(fr *pb.MultiplexFollow) error {
	ref, req := fr.GetRef(), fr.GetRequest()
	switch {
	case ref == 0:
		return fmt.Errorf("follow: ref 0: %w", ErrMalformed)
	case req == nil:
		return fmt.Errorf("follow %d: no request: %w", ref, ErrMalformed)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, open := m.follows[ref]; open {
		return fmt.Errorf("follow: ref %d is open: %w", ref, ErrMalformed)
	}
	if m.closing {
		return nil
	}
	f := &muxFollow{m: m, ref: ref, seat: muxSeat{req.GetTableId(), req.GetSeatToken()}, seq: req.GetAfterSeq(), busy: true}
	f.ctx, f.cancel = context.WithCancel(m.ctx)
	f.notify, f.putMsg = f.wake, f.put
	m.follows[ref] = f
	f.st = m.seats[f.seat]
	if f.st == nil {
		f.st = &muxSeatState{}
		m.seats[f.seat] = f.st
	}
	f.st.follows = append(f.st.follows, f)
	m.wg.Add(1)
	go m.open(f, req)
	return nil
}

// open opens a follow's feed on a goroutine of its own, which ends once
// the feed is open: opening may wait (for the limits, the table, a claim
// dwell that holds the snapshot back).
func (m *mux) open(f *muxFollow, req *pb.StreamEventsRequest) {
	defer m.wg.Done()
	var feed ruleset.Feed
	var release func()
	err := m.safely(func() (err error) {
		feed, release, err = m.subscribe(f, req)
		return err
	})
	m.mu.Lock()
	if err == nil {
		err = f.ctx.Err() // unfollowed, or the stream ended, while it opened
	}
	f.busy = false
	f.feed, f.release = feed, release
	if err != nil {
		m.end(f, err)
	} else {
		m.markReady(f)
	}
	m.mu.Unlock()
	m.bury()
}

// subscribe opens a follow as StreamEvents opens its stream, after the
// limits a stream of its own would have passed.
func (m *mux) subscribe(f *muxFollow, req *pb.StreamEventsRequest) (ruleset.Feed, func(), error) {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return nil, nil, err
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return nil, nil, err
	}
	if err := m.t.s.lim.allow(f.ctx, muxFollowMethod); err != nil {
		return nil, nil, err
	}
	if err := m.elsewhere(f.ctx, id); err != nil {
		return nil, nil, err
	}
	release, err := m.t.s.lim.open(f.ctx, muxFollowMethod)
	if err != nil {
		return nil, nil, err
	}
	feed, err := route(m.t.s, id, func(tb ruleset.Tables) (ruleset.Feed, error) {
		return tb.Subscribe(f.ctx, id, req.GetSeatToken(), req.GetAfterSeq(), f.notify)
	})
	if err != nil {
		release()
		return nil, nil, err
	}
	return feed, release, nil
}

// wake is a follow's notify: its table may have events for it. It is
// called by the table's runner, holding no lock of the table; it takes
// only m.wmu, and rings the writer once for the follows woken until the
// writer takes them (take).
func (f *muxFollow) wake() {
	m := f.m
	m.wmu.Lock()
	first := len(m.woken) == 0 && len(m.answers) == 0
	if !f.woken {
		f.woken = true
		m.woken = append(m.woken, f)
	}
	m.wmu.Unlock()
	if first {
		m.ring()
	}
}

// take moves the follows woken into m.ready, in the order they woke,
// and the answers of the actions done into the outbox (or holds them);
// m.mu is held.
func (m *mux) take() {
	m.wmu.Lock()
	woken, answers := m.woken, m.answers
	m.woken, m.woken2 = m.woken2[:0], woken
	m.answers, m.answers2 = m.answers2[:0], answers
	for _, f := range woken {
		f.woken = false
	}
	m.wmu.Unlock()
	for _, f := range woken {
		m.addReady(f) // the writer's own: no ring
	}
	clear(woken)
	for _, a := range answers {
		m.putDone(a)
	}
	clear(answers)
}

// markReady puts a follow among those the writer drains and wakes the
// writer; m.mu is held.
func (m *mux) markReady(f *muxFollow) {
	if m.addReady(f) {
		m.ring()
	}
}

// addReady is markReady without the wake, and reports whether the follow
// was not ready already.
func (m *mux) addReady(f *muxFollow) bool {
	if f.ready || f.done {
		return false
	}
	f.ready = true
	m.ready = append(m.ready, f)
	return true
}

// What a refused follow or action names: the limits count them as the
// calls they stand for.
const (
	muxFollowMethod = "/mahjong.authority.v1.TableService/Multiplex.follow"
	muxActMethod    = "/mahjong.authority.v1.TableService/Multiplex.act"
)

// elsewhere refuses a table that another node of the cluster owns: a
// Multiplex stream is never forwarded.
func (m *mux) elsewhere(ctx context.Context, id string) error {
	c := m.t.s.cfg.Cluster
	if c == nil {
		return nil
	}
	addr, away, err := c.Elsewhere(ctx, id, m.t.s.holds)
	switch {
	case err != nil:
		return err
	case away:
		return elsewhere(addr, nil)
	}
	return nil
}

// unfollow ends a follow with CANCELLED; a ref not open (its end on its
// way already) is no error.
func (m *mux) unfollow(ref uint32) error {
	if ref == 0 {
		return fmt.Errorf("unfollow: ref 0: %w", ErrMalformed)
	}
	m.mu.Lock()
	f := m.follows[ref]
	if f != nil {
		f.cancel()
		if !f.busy {
			// Otherwise its goroutine ends it, for its context.
			m.end(f, context.Canceled)
		}
	}
	m.mu.Unlock()
	m.bury()
	return nil
}

// drain puts what the ready follows have into the outbox, in the order
// they became ready, until the outbox is full: a follow with more than
// fits stays ready, first in line. m.mu is held; the feeds ended are
// closed by bury.
func (m *mux) drain() {
	k := 0
	for ; k < len(m.ready); k++ {
		f := m.ready[k]
		if f.busy || f.done || f.feed == nil {
			f.ready = false
			continue
		}
		st, err := f.feed.Drain(f.putMsg)
		if st == host.DrainFull {
			break
		}
		f.ready = false
		switch st {
		case host.DrainFetch:
			f.busy = true
			m.wg.Add(1)
			go m.fetch(f)
		case host.DrainEnd:
			m.end(f, err)
		}
	}
	n := copy(m.ready, m.ready[k:])
	clear(m.ready[n:])
	m.ready = m.ready[:n]
}

// fetch reads a follow's next events from the store, on a goroutine of
// its own: a follow catching up from before the table's latest stored
// snapshot (a resume from long ago, a table recovered from one).
func (m *mux) fetch(f *muxFollow) {
	defer m.wg.Done()
	err := m.safely(func() error { return f.feed.Fetch(f.ctx) })
	m.mu.Lock()
	f.busy = false
	if err != nil && !f.done {
		m.end(f, err)
	} else {
		m.markReady(f)
	}
	m.mu.Unlock()
	m.bury()
}

// put puts one message of a follow (its snapshot, or an event) into the
// outbox, unless the outbox has no room for it (host.ErrNoRoom); the held
// answers its seq lets go follow it. m.mu is held.
func (f *muxFollow) put(msg proto.Message) error {
	m := f.m
	var seq uint64
	var body []byte // a message not encoded already (a snapshot)
	var enc *encoded.Message
	switch v := msg.(type) {
	case *encoded.Message:
		seq, enc = v.Seq(), v
	case *pb.StreamEventsResponse:
		if sn := v.GetSnapshot(); sn != nil {
			seq = sn.GetSeq()
		} else {
			seq = v.GetEvent().GetSeq()
		}
		b, err := proto.Marshal(v)
		if err != nil {
			return err
		}
		body = b
	default:
		return fmt.Errorf("multiplex: a follow sent a %T", msg)
	}
	size := len(body)
	if enc != nil {
		size = enc.Len()
	}
	n := itemLen(fItemEvent, fEventRef, uint64(f.ref), fEventEvent, size)
	if m.events > 0 && m.events+n > muxMaxOutbox {
		return host.ErrNoRoom
	}
	m.appendItem(fItemEvent, fEventRef, uint64(f.ref), fEventEvent, body, enc)
	m.events += n
	if seq > f.seq {
		f.seq = seq
	}
	m.letGo(f.st)
	return nil
}

// end puts a follow's end into the outbox; its ref is free from then on,
// and its feed is closed by bury. m.mu is held.
func (m *mux) end(f *muxFollow, err error) {
	if f.done {
		return
	}
	f.done = true
	st := &spb.Status{}
	if err != nil {
		st = status.Convert(toStatus(err)).Proto()
	}
	delete(m.follows, f.ref)
	ss := f.st
	if i := slices.Index(ss.follows, f); i >= 0 {
		ss.follows = slices.Delete(ss.follows, i, i+1)
	}
	stb, _ := proto.Marshal(st) // a status always encodes
	m.appendItem(fItemEnd, fEndRef, uint64(f.ref), fEndStatus, stb, nil)
	m.letGo(ss)
	if len(ss.follows) == 0 && len(ss.held) == 0 {
		delete(m.seats, f.seat)
	}
	m.dead = append(m.dead, f)
	m.ring()
}

// bury closes the feeds of the follows that ended. It runs without m.mu:
// closing a feed may run its table, which wakes other follows.
func (m *mux) bury() {
	m.mu.Lock()
	dead := m.dead
	m.dead = nil
	m.mu.Unlock()
	for _, f := range dead {
		f.cancel()
		if f.feed != nil {
			f.feed.Close()
		}
		if f.release != nil {
			f.release()
		}
	}
}

// act hands an action to a worker, once a slot is free, in c (the call
// whose messages a was decoded into) or a new call if c is nil; its error
// is the malformed request's.
func (m *mux) act(a *pb.MultiplexAct, c *muxCall) error {
	req := a.GetRequest()
	if req == nil {
		return fmt.Errorf("act %d: no request: %w", a.GetCall(), ErrMalformed)
	}
	select {
	case m.slots <- struct{}{}:
	case <-m.ctx.Done():
		return nil
	}
	// Under wmu, not mu: the writer's drain holds mu a while.
	m.wmu.Lock()
	if m.stopped {
		m.wmu.Unlock()
		<-m.slots
		return nil
	}
	m.wg.Add(1)
	m.wmu.Unlock()
	if c == nil {
		c = muxCalls.Get().(*muxCall)
	}
	c.m, c.req, c.call, c.read = m, req, a.GetCall(), m.t.s.cfg.Clock.Now()
	m.t.s.work.async(c)
	return nil
}

// muxCall is an action of the stream on its way through a worker (a
// job), reused, with the messages the reader decodes an action into.
type muxCall struct {
	m         *mux
	req       *pb.ActRequest
	call, seq uint64
	err       error
	read      time.Time // when the reader read it

	kind pb.MultiplexRequest_Act
	act  pb.MultiplexAct
}

// preset clears the call's messages and sets them in req, reset, for the
// reader to decode the next request into (encoded.Merge).
func (c *muxCall) preset(req *pb.MultiplexRequest) {
	proto.Reset(&c.act)
	c.kind.Act = &c.act
	req.Reset()
	req.Kind = &c.kind
}

var muxCalls = sync.Pool{New: func() any { return new(muxCall) }}

func (c *muxCall) run() { c.seq, c.err = c.m.play(c.req) }

// done answers the action, with the panic of run if it had one.
func (c *muxCall) done(p *handlerPanic) {
	m := c.m
	defer m.wg.Done()
	if p != nil {
		c.seq, c.err = 0, m.t.s.recovered(m.ctx, p)
	}
	m.answer(muxDone{call: c.call, seat: muxSeat{c.req.GetTableId(), c.req.GetSeatToken()}, seq: c.seq, err: c.err, read: c.read})
	c.m, c.req, c.call, c.seq, c.err, c.read = nil, nil, 0, 0, nil, time.Time{}
	muxCalls.Put(c)
}

// play plays an action as Act does, after the limits a call would have
// passed.
func (m *mux) play(req *pb.ActRequest) (uint64, error) {
	if err := m.t.s.lim.allow(m.ctx, muxActMethod); err != nil {
		return 0, err
	}
	if err := checkID("table_id", req.GetTableId()); err != nil {
		return 0, err
	}
	if err := m.elsewhere(m.ctx, req.GetTableId()); err != nil {
		return 0, err
	}
	return m.t.actSeq(m.ctx, req)
}

// answer hands an action's answer to the writer (take, putDone).
func (m *mux) answer(a muxDone) {
	m.wmu.Lock()
	first := len(m.woken) == 0 && len(m.answers) == 0
	m.answers = append(m.answers, a)
	m.wmu.Unlock()
	if first {
		m.ring()
	}
}

// putDone puts an action's answer into the outbox, or holds an accepted
// one until the seat's follows on the stream are at its seq; m.mu is
// held.
func (m *mux) putDone(a muxDone) {
	if st := m.seats[a.seat]; a.err == nil && st != nil && !st.caughtUp(a.seq) {
		st.held = append(st.held, muxAnswer{call: a.call, seq: a.seq, read: a.read})
		return
	}
	m.putAnswer(a.call, a.seq, a.err, a.read)
}

// caughtUp reports whether every open follow of the seat is at seq.
func (st *muxSeatState) caughtUp(seq uint64) bool {
	for _, f := range st.follows {
		if f.seq < seq {
			return false
		}
	}
	return true
}

// letGo puts the held answers of a seat that its follows caught up with
// into the outbox.
func (m *mux) letGo(st *muxSeatState) {
	if len(st.held) == 0 {
		return
	}
	kept := st.held[:0]
	for _, a := range st.held {
		if st.caughtUp(a.seq) {
			m.putAnswer(a.call, a.seq, nil, a.read)
		} else {
			kept = append(kept, a)
		}
	}
	clear(st.held[len(kept):])
	st.held = kept
}

// putAnswer appends an answer to the outbox and frees its slot; m.mu is
// held. read is when the action's request was read.
func (m *mux) putAnswer(call, seq uint64, err error, read time.Time) {
	m.t.s.cfg.Observer.MuxAnswered(m.t.s.cfg.Clock.Now().Sub(read))
	if err != nil {
		st, _ := proto.Marshal(status.Convert(toStatus(err)).Proto()) // a status always encodes
		m.appendItem(fItemAnswer, fAnswerCall, call, fAnswerError, st, nil)
	} else {
		// The ActResponse: its seq, if any.
		var resp [1 + binary.MaxVarintLen64]byte
		b := resp[:0]
		if seq != 0 {
			b = protowire.AppendTag(b, fRespSeq, protowire.VarintType)
			b = protowire.AppendVarint(b, seq)
		}
		m.appendItem(fItemAnswer, fAnswerCall, call, fAnswerResponse, b, nil)
	}
	<-m.slots
}

// itemLen is the length in a MultiplexResponse of an item of kind whose
// message holds the varint id (field idNum) and size bytes of body (field
// bodyNum): an event, an answer and an end are all of that shape.
func itemLen(kind, idNum protowire.Number, id uint64, bodyNum protowire.Number, size int) int {
	_, _, n := itemSizes(kind, idNum, id, bodyNum, size)
	return n
}

func itemSizes(kind, idNum protowire.Number, id uint64, bodyNum protowire.Number, size int) (inner, item, n int) {
	inner = protowire.SizeTag(idNum) + protowire.SizeVarint(id) + protowire.SizeTag(bodyNum) + protowire.SizeBytes(size)
	item = protowire.SizeTag(kind) + protowire.SizeBytes(inner)
	return inner, item, protowire.SizeTag(fItems) + protowire.SizeBytes(item)
}

// appendItem appends an item to the outbox (itemLen's shape): its body is
// body or, if enc is not nil, enc's encoding. m.mu is held.
func (m *mux) appendItem(kind, idNum protowire.Number, id uint64, bodyNum protowire.Number, body []byte, enc *encoded.Message) {
	size := len(body)
	if enc != nil {
		size = enc.Len()
	}
	inner, item, n := itemSizes(kind, idNum, id, bodyNum, size)
	b := m.grow(n)
	b = protowire.AppendTag(b, fItems, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(item))
	b = protowire.AppendTag(b, kind, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(inner))
	b = protowire.AppendTag(b, idNum, protowire.VarintType)
	b = protowire.AppendVarint(b, id)
	b = protowire.AppendTag(b, bodyNum, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	if enc != nil {
		b = enc.AppendTo(b)
	} else {
		b = append(b, body...)
	}
	*m.out = b
}

// grow makes room for n more bytes in the outbox and returns it; the
// caller appends and stores it back. m.mu is held.
func (m *mux) grow(n int) []byte {
	if m.out == nil {
		m.out = m.pool.Get(max(muxFirstBuf, n))
		*m.out = (*m.out)[:0]
	}
	if b := *m.out; cap(b)-len(b) < n {
		nb := m.pool.Get(max(2*cap(b), len(b)+n))
		*nb = append((*nb)[:0], b...)
		m.pool.Put(m.out)
		m.out = nb
	}
	return *m.out
}

// over reports whether the stream is at its end: it failed, or the
// client half-closed and every action was answered and every follow
// ended. m.mu is held.
func (m *mux) over() bool {
	return m.fail != nil || m.ctx.Err() != nil || (m.eof && len(m.slots) == 0 && len(m.follows) == 0)
}

// write sends what the outbox holds, each time all of it in one message,
// until the stream is over; then it stops the follows and actions, waits
// for them and closes the feeds still open.
func (m *mux) write() error {
	err := m.send()
	m.mu.Lock()
	m.closing = true
	m.wmu.Lock()
	m.stopped = true
	m.wmu.Unlock()
	if m.fail != nil {
		err = m.fail
	}
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	for _, f := range m.follows {
		if !f.done {
			f.done = true
			m.dead = append(m.dead, f)
		}
	}
	if m.out != nil {
		m.pool.Put(m.out)
		m.out = nil
	}
	m.mu.Unlock()
	m.bury()
	if err == nil {
		err = m.stream.Context().Err()
	}
	return toStatus(err)
}

func (m *mux) send() error {
	for {
		m.mu.Lock()
		m.take()
		for m.out == nil && len(m.ready) == 0 && !m.over() {
			m.mu.Unlock()
			select {
			case <-m.bell:
			case <-m.ctx.Done():
			}
			m.mu.Lock()
			m.take()
		}
		if m.fail != nil || m.ctx.Err() != nil {
			m.mu.Unlock()
			return nil
		}
		if muxGather {
			// What the other seats of the table are about to get.
			m.mu.Unlock()
			runtime.Gosched()
			m.mu.Lock()
			m.take()
		}
		m.drain()
		out := m.out
		if out == nil {
			over := m.over()
			m.mu.Unlock()
			m.bury()
			if over {
				return nil
			}
			continue
		}
		m.out, m.events = nil, 0
		m.mu.Unlock()
		m.bury()
		if err := m.stream.SendMsg(encoded.NewWhole(newMultiplexResponse, out, m.pool)); err != nil {
			return err
		}
	}
}

func newMultiplexResponse() proto.Message { return &pb.MultiplexResponse{} }

// The field numbers of the messages the writer composes, from the
// descriptors.
var (
	fItems          = field(&pb.MultiplexResponse{}, "items")
	fItemEvent      = field(&pb.MultiplexItem{}, "event")
	fItemAnswer     = field(&pb.MultiplexItem{}, "answer")
	fItemEnd        = field(&pb.MultiplexItem{}, "end")
	fEventRef       = field(&pb.MultiplexEvent{}, "ref")
	fEventEvent     = field(&pb.MultiplexEvent{}, "event")
	fAnswerCall     = field(&pb.MultiplexAnswer{}, "call")
	fAnswerResponse = field(&pb.MultiplexAnswer{}, "response")
	fAnswerError    = field(&pb.MultiplexAnswer{}, "error")
	fEndRef         = field(&pb.MultiplexEnd{}, "ref")
	fEndStatus      = field(&pb.MultiplexEnd{}, "status")
	fRespSeq        = field(&pb.ActResponse{}, "seq")
)

func field(m proto.Message, name protoreflect.Name) protowire.Number {
	return m.ProtoReflect().Descriptor().Fields().ByName(name).Number()
}
