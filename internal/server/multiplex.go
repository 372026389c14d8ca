package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/mem"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
	"github.com/mahjong-authority/authority/internal/encoded"
	"github.com/mahjong-authority/authority/internal/ruleset"
)

// Multiplex serves many seats' follows and actions on one stream
// (docs/protocol.md, "One stream for many seats"). One goroutine reads the
// requests; each follow runs on a goroutine of its own, each action on one
// of the server's workers; everything they send goes into the stream's
// outbox, already encoded, and the handler's goroutine sends whatever the
// outbox holds at once as one MultiplexResponse.
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
// past it the stream's follows wait, and so do their tables' events for
// this client alone. Answers and ends are small and bounded by muxMaxActs
// and the follows; they never wait. (A variable for tests.)
var muxMaxOutbox = 256 << 10

// muxGather makes the writer yield once before it takes the outbox, so
// that what other goroutines are about to send (the other seats' events
// of one action) goes out in the same message: measured with
// BenchmarkServeMultiplex (cmd/authority), from 3.7 messages an action to
// 0.2, and a sixth fewer allocations (docs/serving.md).
const muxGather = true

// mux is one Multiplex stream.
type mux struct {
	t      *tableService
	stream pb.TableService_MultiplexServer
	ctx    context.Context
	cancel context.CancelFunc
	slots  chan struct{} // one per action whose answer is not in the outbox
	pool   mem.BufferPool

	mu      sync.Mutex
	ready   sync.Cond // the writer's: something in the outbox, or the end
	room    sync.Cond // the follows': room in the outbox
	out     *[]byte   // the outbox: MultiplexResponse items, encoded; nil when empty
	events  int       // bytes of events in out
	follows map[uint32]*muxFollow
	bySeat  map[muxSeat][]*muxFollow // the open follows of a seat
	held    map[muxSeat][]muxAnswer  // answers waiting for their seat's follows
	acts    int                      // actions whose answer is not in out
	eof     bool                     // the client sends no more
	fail    error                    // ends the stream
	closing bool                     // nothing starts any more
	wg      sync.WaitGroup           // follows and actions
}

// muxSeat names a seat as a request does: its table and its token.
type muxSeat struct{ table, token string }

type muxFollow struct {
	ref    uint32
	seat   muxSeat
	seq    uint64 // the last seq in the outbox (after_seq before any)
	cancel context.CancelFunc
}

// muxAnswer is an accepted action's answer, held until the acting seat's
// follows on the stream are at its seq.
type muxAnswer struct {
	call, seq uint64
}

func newMux(t *tableService, stream pb.TableService_MultiplexServer) *mux {
	ctx, cancel := context.WithCancel(stream.Context())
	m := &mux{
		t: t, stream: stream, ctx: ctx, cancel: cancel,
		slots: make(chan struct{}, muxMaxActs), pool: mem.DefaultBufferPool(),
		follows: map[uint32]*muxFollow{}, bySeat: map[muxSeat][]*muxFollow{}, held: map[muxSeat][]muxAnswer{},
	}
	m.ready.L, m.room.L = &m.mu, &m.mu
	// Whoever waits for the outbox wakes when the stream ends.
	context.AfterFunc(ctx, func() {
		m.mu.Lock()
		m.ready.Broadcast()
		m.room.Broadcast()
		m.mu.Unlock()
	})
	return m
}

// read takes the client's requests until it half-closes, the stream
// fails or a request is malformed.
func (m *mux) read() {
	for {
		req := &pb.MultiplexRequest{}
		if err := m.stream.RecvMsg(req); err != nil {
			m.mu.Lock()
			if errors.Is(err, io.EOF) {
				m.eof = true
			} else if m.fail == nil {
				m.fail = err
			}
			m.ready.Broadcast()
			m.mu.Unlock()
			return
		}
		err := m.safely(func() error {
			switch k := req.GetKind().(type) {
			case *pb.MultiplexRequest_Follow:
				return m.follow(k.Follow)
			case *pb.MultiplexRequest_Unfollow:
				return m.unfollow(k.Unfollow.GetRef())
			case *pb.MultiplexRequest_Act:
				return m.act(k.Act)
			}
			return fmt.Errorf("a request without a kind: %w", ErrMalformed)
		})
		if err != nil {
			m.mu.Lock()
			if m.fail == nil {
				m.fail = toStatus(err)
			}
			m.ready.Broadcast()
			m.mu.Unlock()
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
func (m *mux) follow(f *pb.MultiplexFollow) error {
	ref, req := f.GetRef(), f.GetRequest()
	switch {
	case ref == 0:
		return fmt.Errorf("follow: ref 0: %w", ErrMalformed)
	case req == nil:
		return fmt.Errorf("follow %d: no request: %w", ref, ErrMalformed)
	}
	ctx, cancel := context.WithCancel(m.ctx)
	mf := &muxFollow{ref: ref, seat: muxSeat{req.GetTableId(), req.GetSeatToken()}, seq: req.GetAfterSeq(), cancel: cancel}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, open := m.follows[ref]; open {
		cancel()
		return fmt.Errorf("follow: ref %d is open: %w", ref, ErrMalformed)
	}
	if m.closing {
		cancel()
		return nil
	}
	m.follows[ref] = mf
	m.bySeat[mf.seat] = append(m.bySeat[mf.seat], mf)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		err := m.safely(func() error { return m.runFollow(ctx, mf, req) })
		cancel()
		m.end(mf, err)
	}()
	return nil
}

// runFollow follows a seat as StreamEvents does, after the limits a
// stream of its own would have passed.
func (m *mux) runFollow(ctx context.Context, f *muxFollow, req *pb.StreamEventsRequest) error {
	id := req.GetTableId()
	if err := checkID("table_id", id); err != nil {
		return err
	}
	if err := checkToken("seat_token", req.GetSeatToken()); err != nil {
		return err
	}
	if err := m.t.s.lim.allow(ctx, muxFollowMethod); err != nil {
		return err
	}
	if err := m.elsewhere(ctx, id); err != nil {
		return err
	}
	release, err := m.t.s.lim.open(ctx, muxFollowMethod)
	if err != nil {
		return err
	}
	defer release()
	_, err = route(m.t.s, id, func(tb ruleset.Tables) (struct{}, error) {
		return struct{}{}, tb.Follow(ctx, id, req.GetSeatToken(), req.GetAfterSeq(), func(msg proto.Message) error { return m.event(ctx, f, msg) })
	})
	return err
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
	defer m.mu.Unlock()
	if f := m.follows[ref]; f != nil {
		f.cancel()
		m.room.Broadcast() // it may wait for room
	}
	return nil
}

// event puts a follow's snapshot or event into the outbox, waiting for
// room; the held answers its seq lets go follow it.
func (m *mux) event(ctx context.Context, f *muxFollow, msg proto.Message) error {
	var seq uint64
	var size int
	var plain []byte // a message not encoded already (a snapshot)
	switch v := msg.(type) {
	case *encoded.Message:
		seq, size = v.Seq(), v.Len()
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
		plain, size = b, len(b)
	default:
		return fmt.Errorf("multiplex: a follow sent a %T", msg)
	}
	inner := protowire.SizeTag(fEventRef) + protowire.SizeVarint(uint64(f.ref)) + protowire.SizeTag(fEventEvent) + protowire.SizeBytes(size)
	item := protowire.SizeTag(fItemEvent) + protowire.SizeBytes(inner)
	n := protowire.SizeTag(fItems) + protowire.SizeBytes(item)

	m.mu.Lock()
	defer m.mu.Unlock()
	for m.events > 0 && m.events+n > muxMaxOutbox && ctx.Err() == nil {
		m.room.Wait()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	b := m.grow(n)
	b = protowire.AppendTag(b, fItems, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(item))
	b = protowire.AppendTag(b, fItemEvent, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(inner))
	b = protowire.AppendTag(b, fEventRef, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(f.ref))
	b = protowire.AppendTag(b, fEventEvent, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	if plain != nil {
		b = append(b, plain...)
	} else {
		b = msg.(*encoded.Message).AppendTo(b)
	}
	*m.out = b
	m.events += n
	if seq > f.seq {
		f.seq = seq
	}
	m.letGo(f.seat)
	m.ready.Signal()
	return nil
}

// end puts a follow's end into the outbox; its ref is free from then on.
func (m *mux) end(f *muxFollow, err error) {
	st := &spb.Status{}
	if err != nil {
		st = status.Convert(toStatus(err)).Proto()
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.follows, f.ref)
	fs := m.bySeat[f.seat]
	for i, g := range fs {
		if g == f {
			fs = append(fs[:i], fs[i+1:]...)
			break
		}
	}
	if len(fs) == 0 {
		delete(m.bySeat, f.seat)
	} else {
		m.bySeat[f.seat] = fs
	}
	m.putEnd(f.ref, st)
	m.letGo(f.seat)
	m.ready.Signal()
}

// act hands an action to a worker, once a slot is free; its error is the
// malformed request's.
func (m *mux) act(a *pb.MultiplexAct) error {
	req := a.GetRequest()
	if req == nil {
		return fmt.Errorf("act %d: no request: %w", a.GetCall(), ErrMalformed)
	}
	select {
	case m.slots <- struct{}{}:
	case <-m.ctx.Done():
		return nil
	}
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		<-m.slots
		return nil
	}
	m.acts++
	m.wg.Add(1)
	m.mu.Unlock()
	call := a.GetCall()
	var seq uint64
	var err error
	m.t.s.work.async(func() { seq, err = m.play(req) }, func(p *handlerPanic) {
		defer m.wg.Done()
		if p != nil {
			seq, err = 0, m.t.s.recovered(m.ctx, p)
		}
		m.answer(call, muxSeat{req.GetTableId(), req.GetSeatToken()}, seq, err)
	})
	return nil
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
	r, err := m.t.act(m.ctx, req)
	return r.GetSeq(), err
}

// answer puts an action's answer into the outbox, or holds an accepted
// one until the seat's follows on the stream are at its seq.
func (m *mux) answer(call uint64, seat muxSeat, seq uint64, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil && !m.caughtUp(seat, seq) {
		m.held[seat] = append(m.held[seat], muxAnswer{call: call, seq: seq})
		return
	}
	m.putAnswer(call, seq, err)
	m.ready.Signal()
}

// caughtUp reports whether every open follow of seat is at seq.
func (m *mux) caughtUp(seat muxSeat, seq uint64) bool {
	for _, f := range m.bySeat[seat] {
		if f.seq < seq {
			return false
		}
	}
	return true
}

// letGo puts the held answers of seat that its follows caught up with
// into the outbox.
func (m *mux) letGo(seat muxSeat) {
	held := m.held[seat]
	if len(held) == 0 {
		return
	}
	kept := held[:0]
	for _, a := range held {
		if m.caughtUp(seat, a.seq) {
			m.putAnswer(a.call, a.seq, nil)
		} else {
			kept = append(kept, a)
		}
	}
	if len(kept) == 0 {
		delete(m.held, seat)
	} else {
		m.held[seat] = kept
	}
}

// putAnswer appends an answer to the outbox and frees its slot; m.mu is
// held.
func (m *mux) putAnswer(call, seq uint64, err error) {
	var inner int
	var st []byte
	resp := 0 // ActResponse's size
	if seq != 0 {
		resp = protowire.SizeTag(fRespSeq) + protowire.SizeVarint(seq)
	}
	inner = protowire.SizeTag(fAnswerCall) + protowire.SizeVarint(call)
	if err != nil {
		st, _ = proto.Marshal(status.Convert(toStatus(err)).Proto()) // a status always encodes
		inner += protowire.SizeTag(fAnswerError) + protowire.SizeBytes(len(st))
	} else {
		inner += protowire.SizeTag(fAnswerResponse) + protowire.SizeBytes(resp)
	}
	item := protowire.SizeTag(fItemAnswer) + protowire.SizeBytes(inner)
	b := m.grow(protowire.SizeTag(fItems) + protowire.SizeBytes(item))
	b = protowire.AppendTag(b, fItems, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(item))
	b = protowire.AppendTag(b, fItemAnswer, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(inner))
	b = protowire.AppendTag(b, fAnswerCall, protowire.VarintType)
	b = protowire.AppendVarint(b, call)
	if err != nil {
		b = protowire.AppendTag(b, fAnswerError, protowire.BytesType)
		b = protowire.AppendBytes(b, st)
	} else {
		b = protowire.AppendTag(b, fAnswerResponse, protowire.BytesType)
		b = protowire.AppendVarint(b, uint64(resp))
		if seq != 0 {
			b = protowire.AppendTag(b, fRespSeq, protowire.VarintType)
			b = protowire.AppendVarint(b, seq)
		}
	}
	*m.out = b
	m.acts--
	<-m.slots
}

// putEnd appends a follow's end to the outbox; m.mu is held.
func (m *mux) putEnd(ref uint32, st *spb.Status) {
	stb, _ := proto.Marshal(st) // a status always encodes
	inner := protowire.SizeTag(fEndRef) + protowire.SizeVarint(uint64(ref)) + protowire.SizeTag(fEndStatus) + protowire.SizeBytes(len(stb))
	item := protowire.SizeTag(fItemEnd) + protowire.SizeBytes(inner)
	b := m.grow(protowire.SizeTag(fItems) + protowire.SizeBytes(item))
	b = protowire.AppendTag(b, fItems, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(item))
	b = protowire.AppendTag(b, fItemEnd, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(inner))
	b = protowire.AppendTag(b, fEndRef, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(ref))
	b = protowire.AppendTag(b, fEndStatus, protowire.BytesType)
	b = protowire.AppendBytes(b, stb)
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
	return m.fail != nil || m.ctx.Err() != nil || (m.eof && m.acts == 0 && len(m.follows) == 0)
}

// write sends what the outbox holds, each time all of it in one message,
// until the stream is over; then it stops the follows and actions and
// waits for them.
func (m *mux) write() error {
	err := m.send()
	m.mu.Lock()
	m.closing = true
	if m.fail != nil {
		err = m.fail
	}
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	m.mu.Lock()
	if m.out != nil {
		m.pool.Put(m.out)
		m.out = nil
	}
	m.mu.Unlock()
	if err == nil {
		err = m.stream.Context().Err()
	}
	return toStatus(err)
}

func (m *mux) send() error {
	for {
		m.mu.Lock()
		for m.out == nil && !m.over() {
			m.ready.Wait()
		}
		if m.out == nil || m.ctx.Err() != nil {
			m.mu.Unlock()
			return nil
		}
		if muxGather {
			// What the other seats of the table are about to send.
			m.mu.Unlock()
			runtime.Gosched()
			m.mu.Lock()
		}
		out := m.out
		m.out, m.events = nil, 0
		m.room.Broadcast()
		m.mu.Unlock()
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
