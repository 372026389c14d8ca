package host

import (
	"sync"
	"sync/atomic"
)

// wireRing is how many of its latest events a table keeps encoded for its
// streams. The viewers of an event send it within moments of each other,
// so a few suffice for all of them to share one encoding; a stream far
// behind (resumed, or a spectator's delay) encodes its own.
const wireRing = 16

// wired is event i of a table's log, encoded once by the first stream
// that needs it while the others it woke at the same moment wait.
type wired struct {
	i    int32
	once sync.Once
	b    []byte
}

// wireCache holds a table's latest events encoded, event i in slot i mod
// wireRing; the streams claim and fill the slots without the table's lock.
type wireCache [wireRing]atomic.Pointer[wired]

// wire is event e, number i of the table's log (-1 for an event read back
// from the store, not kept), encoded by Config.Encode: nil without one.
// e's Seq must be unset.
func (t *table[A, V, B]) wire(i int32, e *Event[B]) []byte {
	enc := t.h.cfg.Encode
	if enc == nil {
		return nil
	}
	if i < 0 {
		return enc(e)
	}
	slot := &t.wires[uint32(i)%wireRing]
	w := slot.Load()
	if w == nil || w.i != i {
		nw := &wired{i: i}
		if !slot.CompareAndSwap(w, nw) {
			// Another stream claimed the slot first: for this event, or
			// (a stream far behind) for a newer one.
			if w = slot.Load(); w == nil || w.i != i {
				return enc(e)
			}
		} else {
			w = nw
		}
	}
	w.once.Do(func() { w.b = enc(e) })
	return w.b
}
