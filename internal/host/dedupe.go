package host

import "hash/maphash"

// window is a seat's dedupe window: the answers to its latest request
// ids, oldest first, in a ring of parallel slices rather than a map. At
// 256 ids a seat a map's slots cost about as much again as the entries
// (some 200 kB a playing table); a lookup scans the ids' 8-byte sums,
// a fraction of a microsecond for a full window.
type window[A comparable] struct {
	sums []uint64 // maphash of ids[i]
	ids  []string
	ans  []answer[A]
	head int // the oldest entry once the ring is full
}

var windowSeed = maphash.MakeSeed()

// get returns the answer remembered for id.
func (w *window[A]) get(id string) (answer[A], bool) {
	h := maphash.String(windowSeed, id)
	for i, s := range w.sums {
		if s == h && w.ids[i] == id {
			return w.ans[i], true
		}
	}
	return answer[A]{}, false
}

// add remembers the answer to id, which it does not hold, forgetting the
// oldest once it holds max.
func (w *window[A]) add(max int, id string, a answer[A]) {
	h := maphash.String(windowSeed, id)
	if len(w.ids) < max {
		w.sums, w.ids, w.ans = append(w.sums, h), append(w.ids, id), append(w.ans, a)
		return
	}
	w.sums[w.head], w.ids[w.head], w.ans[w.head] = h, id, a
	w.head = (w.head + 1) % len(w.ids)
}

// each calls f with every entry, oldest first.
func (w *window[A]) each(f func(id string, a answer[A])) {
	n := len(w.ids)
	for k := range n {
		i := (w.head + k) % n
		f(w.ids[i], w.ans[i])
	}
}
