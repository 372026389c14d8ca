package host

import (
	"context"
	"runtime"
)

// WaitSnapshots waits until table id has no snapshot write in flight or
// waiting, and their outcomes are applied on the table: a test then sees
// the store and the table as a write made before the answer would have
// left them. Snapshot writes are asynchronous (flush); the fixtures call
// this after every request, so that which rounds get a snapshot does not
// depend on how fast the store's goroutine ran.
func (h *Host[A, V, B]) WaitSnapshots(id string) {
	for {
		h.mu.RLock()
		t := h.tables[id]
		h.mu.RUnlock()
		if t == nil {
			return
		}
		var w *snapWrite
		busy := false
		_, err := callOn(context.Background(), t, func(t *table[A, V, B]) (struct{}, error) {
			w, busy = t.writing, t.writing != nil || len(t.waiting) > 0
			return struct{}{}, nil
		})
		if err != nil || !busy {
			return
		}
		if w != nil {
			<-w.done // then its outcome is posted to the table
		}
		runtime.Gosched()
	}
}

// InMemory returns how many of table id's events it holds in memory, and
// how many before them it left to the store (its archive).
func (h *Host[A, V, B]) InMemory(id string) (events int, archived uint64) {
	h.mu.RLock()
	t := h.tables[id]
	h.mu.RUnlock()
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.events.len(), t.base
}

// MaxWaiting is how many snapshots of a table wait behind a write.
const MaxWaiting = maxWaiting

// LateTimerCall runs on table id what its timer (dwell: its claim dwell's
// timer) posts when it fires, as a call of an earlier arm, which Reset and
// Stop do not stop once started, reaches the table late.
func (h *Host[A, V, B]) LateTimerCall(id string, dwell bool) error {
	h.mu.RLock()
	t := h.tables[id]
	h.mu.RUnlock()
	_, err := callOn(context.Background(), t, func(t *table[A, V, B]) (struct{}, error) {
		r := &t.timer
		if dwell {
			r = &t.holdEnd
		}
		if r.ready() {
			r.run()
		}
		return struct{}{}, nil
	})
	return err
}
