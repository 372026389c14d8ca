package host

import (
	"encoding/binary"
	"math/bits"
)

// window is a seat's dedupe window: the answers to its latest request
// ids, oldest first, in a ring. It keeps no id, only the id's 128-bit
// digest (idKey), so that an entry costs the same whatever the client's
// ids; the ring grows in a few steps up to its size and is then one
// array of digests and one of answers, with the errors of the refused
// answers (few) beside them. For riichi's actions an entry is 48 bytes
// and a full window of 256 about 12 KiB, against some 36 KiB with the ids
// themselves (BenchmarkWindowMemory). A lookup scans the digests, a
// fraction of a microsecond for a full window (BenchmarkWindowAct).
type window[A comparable] struct {
	keys    []idKey   // keys[i] is the digest of the id of ans[i]
	ans     []slot[A] // the answers, parallel to keys
	refused []refusal // the errors of the refused answers held, oldest first from gone on
	gone    int       // refused[:gone] are forgotten, their room reused by the next append
	head    int       // the oldest entry once the ring is full
}

// slot is an answer without its error.
type slot[A comparable] struct {
	action A
	seq    uint64 // refusedBit set: refused, with its error in window.refused
}

// refusedBit marks a slot whose answer is a refusal: no seq comes near.
const refusedBit = 1 << 63

type refusal struct {
	i   int
	err error
}

// idKey is the digest of a request id: FNV-1a, 128 bits. It is stable
// across processes (the windows are in the snapshots), costs no
// allocation, and takes some 2 ns a byte. A collision is no practical
// concern: among a window's 256 ids the odds of an accidental one are
// about 2^-113; and FNV is no cryptographic hash, so a client could make
// two ids that collide on purpose, but a window holds one seat's own
// requests, so a collision can only give that seat the answer to another
// of its own requests (or ErrRequestIDReused), never touch anyone else's.
type idKey struct{ hi, lo uint64 }

// digest returns id's idKey: FNV-1a 128 as hash/fnv computes it.
func digest(id string) idKey {
	const primeLo, primeShift = 0x13b, 24 // the prime is 2^88 + 0x13b
	hi, lo := uint64(0x6c62272e07bb0142), uint64(0x62b821756295c58d)
	for i := 0; i < len(id); i++ {
		lo ^= uint64(id[i])
		h, l := bits.Mul64(primeLo, lo)
		h += lo<<primeShift + primeLo*hi
		hi, lo = h, l
	}
	return idKey{hi, lo}
}

// appendKey appends k's 16 bytes, big-endian, as hash/fnv's Sum does.
func appendKey(dst []byte, k idKey) []byte {
	return binary.BigEndian.AppendUint64(binary.BigEndian.AppendUint64(dst, k.hi), k.lo)
}

// keyFrom reads what appendKey wrote; b holds 16 bytes.
func keyFrom(b []byte) idKey {
	return idKey{binary.BigEndian.Uint64(b), binary.BigEndian.Uint64(b[8:])}
}

// get returns the answer remembered for the id whose digest is k.
func (w *window[A]) get(k idKey) (answer[A], bool) {
	for i, x := range w.keys {
		if x == k {
			s := &w.ans[i]
			a := answer[A]{action: s.action, seq: s.seq &^ refusedBit}
			if s.seq&refusedBit != 0 {
				a.err = w.refusal(i)
			}
			return a, true
		}
	}
	return answer[A]{}, false
}

func (w *window[A]) refusal(i int) error {
	for _, r := range w.refused[w.gone:] {
		if r.i == i {
			return r.err
		}
	}
	return nil
}

// add remembers the answer to the id whose digest is k, which it does not
// hold, forgetting the oldest once it holds size.
func (w *window[A]) add(size int, k idKey, a answer[A]) {
	s := slot[A]{action: a.action, seq: a.seq}
	i := len(w.keys)
	if i < size {
		if i == cap(w.keys) {
			// Grow in steps (16, 32, ... size), each array allocated
			// once a step: a seat that plays a short game pays for its
			// ids, a full window for exactly size.
			n := min(size, max(16, 2*i))
			w.keys = append(make([]idKey, 0, n), w.keys...)
			w.ans = append(make([]slot[A], 0, n), w.ans...)
		}
		w.keys, w.ans = append(w.keys, k), append(w.ans, s)
	} else {
		i = w.head
		if w.ans[i].seq&refusedBit != 0 {
			// Refusals are kept in the order of their entries, and the
			// ring forgets the oldest entry first: this is the oldest.
			w.refused[w.gone] = refusal{}
			w.gone++
		}
		w.keys[i], w.ans[i] = k, s
		w.head = (w.head + 1) % len(w.keys)
	}
	if a.err != nil {
		w.ans[i].seq |= refusedBit
		if len(w.refused) == cap(w.refused) && w.gone > 0 {
			n := copy(w.refused, w.refused[w.gone:])
			clear(w.refused[n:])
			w.refused, w.gone = w.refused[:n], 0
		}
		w.refused = append(w.refused, refusal{i: i, err: a.err})
	}
}

// each calls f with every entry, oldest first.
func (w *window[A]) each(f func(k idKey, a answer[A])) {
	n := len(w.keys)
	for j := range n {
		i := (w.head + j) % n
		s := w.ans[i]
		a := answer[A]{action: s.action, seq: s.seq &^ refusedBit}
		if s.seq&refusedBit != 0 {
			a.err = w.refusal(i)
		}
		f(w.keys[i], a)
	}
}
