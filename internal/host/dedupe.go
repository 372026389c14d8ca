package host

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
)

// window is a seat's dedupe window: the answers to its latest request
// ids, oldest first, in a ring of fixed-size entries. An entry keeps
// neither the id nor the action, only digests of both: 64 bits of the
// id's (idKey, truncated: wkey) and 32 of the action's (the table's
// actionKey), which is all a retry needs - find the answer, and tell the
// same action from another one under the same id (ErrRequestIDReused). So
// an entry is 16 bytes whatever the client's ids and the game's actions,
// and a full window of 256 is 4 KiB; with one answer in ten a refusal
// (their errors) about 6.3 KB a seat, against 15.8 KB with the actions
// and 128-bit id digests and 37 KB with the ids themselves
// (BenchmarkWindowMemory). The errors of the refused answers (few) are
// kept beside, in order. The ring grows by half up to its size. A lookup
// scans the entries, a fraction of a microsecond for a full window
// (BenchmarkWindowAct).
type window struct {
	ents    []held
	refused []refusal // the errors of the refused answers held, oldest first from gone on
	gone    int       // refused[:gone] are forgotten, their room reused by the next append
	head    int       // the oldest entry once the ring is full
}

// held is one remembered answer, without its error.
type held struct {
	id  wkey
	act uint32 // the action's digest
	seq uint32 // refusedBit set: refused, with its error in window.refused
}

// refusedBit marks an entry whose answer is a refusal. A seq under it is
// any seat's count of events: a snapshot bounds them to maxEvents (2^24).
const refusedBit = 1 << 31

// answer is the remembered outcome of a request id: the digest of its
// action (the table's actionKey), and the seq or the error it was
// answered with.
type answer struct {
	act uint32
	seq uint64
	err error
}

type refusal struct {
	i   int
	err error
}

// wkey is what a window keeps of an idKey: its first 64 bits. The odds
// that a new id is taken for one of a window's 256 by accident are about
// 2^-56 a request; for collisions made on purpose the argument of idKey
// holds. The action's digest is shorter: it tells apart the actions of
// one id, which only a client that reuses an id for another action sends.
type wkey uint64

func (k idKey) window() wkey { return wkey(k.hi) }

// appendWKey appends k's 8 bytes, big-endian: the first 8 of its idKey's.
func appendWKey(dst []byte, k wkey) []byte { return binary.BigEndian.AppendUint64(dst, uint64(k)) }

// wkeyFrom reads what appendWKey wrote; b holds 8 bytes.
func wkeyFrom(b []byte) wkey { return wkey(binary.BigEndian.Uint64(b)) }

// actionDigest is FNV-1a 64 of an encoded action, folded to 32 bits:
// stable across processes, since the windows are in the snapshots.
func actionDigest(b []byte) uint32 {
	h := uint64(0xcbf29ce484222325)
	for _, c := range b {
		h ^= uint64(c)
		h *= 0x100000001b3
	}
	return uint32(h ^ h>>32)
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

// get returns the answer remembered for the id whose key is k.
func (w *window) get(k wkey) (answer, bool) {
	for i := range w.ents {
		if w.ents[i].id == k {
			return w.answer(i), true
		}
	}
	return answer{}, false
}

// answer is entry i's answer, with its error.
func (w *window) answer(i int) answer {
	e := &w.ents[i]
	a := answer{act: e.act, seq: uint64(e.seq &^ refusedBit)}
	if e.seq&refusedBit != 0 {
		for _, r := range w.refused[w.gone:] {
			if r.i == i {
				a.err = r.err
				break
			}
		}
	}
	return a
}

// add remembers the answer to the id whose key is k, which it does not
// hold, forgetting the oldest once it holds size.
func (w *window) add(size int, k wkey, a answer) {
	e := held{id: k, act: a.act, seq: uint32(a.seq)}
	i := len(w.ents)
	if i < size {
		if i == cap(w.ents) {
			// Grow by half (16, 24, 36, ... size), each step one
			// allocation: a seat that plays a short game pays for its
			// ids, a full window for exactly size.
			n := min(size, max(16, i+i/2))
			w.ents = append(make([]held, 0, n), w.ents...)
		}
		w.ents = append(w.ents, e)
	} else {
		i = w.head
		if w.ents[i].seq&refusedBit != 0 {
			// Refusals are kept in the order of their entries, and the
			// ring forgets the oldest entry first: this is the oldest.
			w.refused[w.gone] = refusal{}
			w.gone++
		}
		w.ents[i] = e
		w.head = (w.head + 1) % len(w.ents)
	}
	if a.err != nil {
		w.ents[i].seq |= refusedBit
		if len(w.refused) == cap(w.refused) && w.gone > 0 {
			n := copy(w.refused, w.refused[w.gone:])
			clear(w.refused[n:])
			w.refused, w.gone = w.refused[:n], 0
		}
		w.refused = append(w.refused, refusal{i: i, err: a.err})
	}
}

// each calls f with every entry, oldest first.
func (w *window) each(f func(k wkey, a answer)) {
	n := len(w.ents)
	for j := range n {
		i := (w.head + j) % n
		f(w.ents[i].id, w.answer(i))
	}
}

// actionKey is the digest of an action that a window keeps: actionDigest
// of the action as the Codec encodes it, so that it is the same in every
// process (the windows are in the snapshots), or without a Codec (no
// snapshots) maphash's of the action's value. Two actions that the Codec
// encodes alike are one action to the window, as to a table recovered
// from a snapshot. A digest that collides can only give a seat the answer
// to its own earlier request under the same id rather than
// ErrRequestIDReused.
func (t *table[A, V, B]) actionKey(a A) uint32 {
	if c := t.h.cfg.Codec; c != nil {
		t.keyBuf = c.AppendAction(t.keyBuf[:0], a)
		return actionDigest(t.keyBuf)
	}
	h := maphash.Comparable(t.keySeed, a)
	return uint32(h ^ h>>32)
}
