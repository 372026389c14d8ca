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
// wireRing. The table's writer claims event i's slot as it logs the event
// (claim); the streams fill it without the table's lock.
type wireCache struct {
	slots [wireRing]atomic.Pointer[wired]
	// slab is where the next claims' wired come from, wireRing at a
	// time: one allocation for that many events (a slab lives on while a
	// stream holds any of its slots).
	slab []wired
}

// claim gives event i a slot of its own, evicting the event wireRing
// before it. Only the table's writer claims, holding the table's lock.
func (c *wireCache) claim(i int32) {
	if len(c.slab) == 0 {
		c.slab = make([]wired, wireRing)
	}
	w := &c.slab[0]
	c.slab = c.slab[1:]
	w.i = i
	c.slots[uint32(i)%wireRing].Store(w)
}

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
	w := t.wires.slots[uint32(i)%wireRing].Load()
	if w == nil || w.i != i {
		// A stream far behind (resumed, or a spectator's delay): the
		// slot holds a newer event, which the live streams still share.
		return enc(e)
	}
	w.once.Do(func() { w.b = enc(e) })
	return w.b
}
