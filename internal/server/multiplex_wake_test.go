package server

import (
	"testing"
	"time"

	"google.golang.org/grpc/mem"

	"github.com/mahjong-authority/authority/internal/clock"
)

// TestMuxWakeWithoutWriterLock checks that a table waking a follow and a
// worker answering an action never wait for the writer's lock, which a
// drain holds while it encodes and copies events: they queue for the
// writer (one ring for the lot), and its take moves them in.
func TestMuxWakeWithoutWriterLock(t *testing.T) {
	srv := &Server{cfg: Config{Observer: nopObserver{}, Clock: clock.Real}}
	m := &mux{
		t: &tableService{s: srv}, bell: make(chan struct{}, 1), slots: make(chan struct{}, 1), pool: mem.DefaultBufferPool(),
		follows: map[uint32]*muxFollow{}, seats: map[muxSeat]*muxSeatState{},
	}
	f := &muxFollow{m: m, ref: 1}
	m.slots <- struct{}{} // the action's slot
	m.mu.Lock()           // a drain in progress
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.wake()
		f.wake()
		m.answer(muxDone{call: 7, seat: muxSeat{"t", "s"}, seq: 3, read: time.Now()})
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a wake or an answer waited for the writer's lock")
	}
	if len(m.bell) != 1 {
		t.Errorf("bell: %d rings waiting, want 1", len(m.bell))
	}
	if len(m.woken) != 1 || len(m.answers) != 1 {
		t.Fatalf("queued: %d follows, %d answers; want 1 and 1", len(m.woken), len(m.answers))
	}
	m.take()
	if len(m.ready) != 1 || m.ready[0] != f || !f.ready || f.woken {
		t.Errorf("after take: ready %v, follow ready %v woken %v", m.ready, f.ready, f.woken)
	}
	if m.out == nil || len(m.slots) != 0 {
		t.Errorf("after take: outbox %v, %d slots taken; want the answer in it and its slot free", m.out, len(m.slots))
	}
	if len(m.woken) != 0 || len(m.answers) != 0 {
		t.Errorf("after take: %d follows, %d answers still queued", len(m.woken), len(m.answers))
	}
	m.pool.Put(m.out)
	m.mu.Unlock()
}
