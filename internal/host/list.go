package host

import (
	"cmp"
	"slices"
	"strings"
	"time"
)

// ListKey is a table's place in listings: tables are ordered by creation
// time, then by id. It stays a table's place across restarts, so a
// listing may go on after a key from any earlier page.
type ListKey struct {
	Created time.Time
	ID      string
}

// Key is the table's place in listings.
func (in Info) Key() ListKey { return ListKey{Created: in.Created, ID: in.ID} }

// Compare orders keys: -1 if k is before o, 0 if they are equal, +1 if k
// is after o.
func (k ListKey) Compare(o ListKey) int {
	if c := cmp.Compare(k.Created.UnixNano(), o.Created.UnixNano()); c != 0 {
		return c
	}
	return strings.Compare(k.ID, o.ID)
}

// ListQuery selects tables from a listing.
type ListQuery struct {
	States      []State  // only tables in one of these states; none: every state
	NewestFirst bool     // order by creation, newest first; otherwise oldest first
	After       *ListKey // only the tables after this place in the order; nil: from its start
	Limit       int      // at most this many tables; 0: no limit
}

// placed is a table in the host's index.
type placed[A comparable, V, B any] struct {
	key ListKey
	t   *table[A, V, B]
}

func comparePlaced[A comparable, V, B any](p placed[A, V, B], k ListKey) int { return p.key.Compare(k) }

// place adds a table to the index; the caller holds mu. Tables are
// usually created in order, so this is usually an append.
func (h *Host[A, V, B]) place(t *table[A, V, B]) {
	k := ListKey{Created: t.rec.Created, ID: t.rec.ID}
	i, _ := slices.BinarySearchFunc(h.index, k, comparePlaced[A, V, B])
	h.index = slices.Insert(h.index, i, placed[A, V, B]{key: k, t: t})
}

// unplace removes a table from the index; the caller holds mu.
func (h *Host[A, V, B]) unplace(t *table[A, V, B]) {
	k := ListKey{Created: t.rec.Created, ID: t.rec.ID}
	if i, ok := slices.BinarySearchFunc(h.index, k, comparePlaced[A, V, B]); ok {
		h.index = slices.Delete(h.index, i, i+1)
	}
}

// states is a set of states; all of them if every is set.
type states struct {
	every bool
	in    [len(stateNames)]bool
}

func (w *states) has(s State) bool { return w.every || w.in[s] }

// appendInfo appends the table's description to out if its state is in
// want: one look, so that a listed table is in a state asked for.
func (t *table[A, V, B]) appendInfo(out []Info, want *states) []Info {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if !want.has(t.snap.State) {
		return out
	}
	out = append(out, t.snap)
	in := &out[len(out)-1]
	in.Seats = slices.Clone(in.Seats)
	return out
}

// matches reports whether the table's state is in want.
func (t *table[A, V, B]) matches(want *states) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return want.has(t.snap.State)
}

// List describes the tables the host holds in memory that q selects - every
// table not finished, and the finished ones for FinishedTTL after their
// game ended - in q's order, and reports whether more tables follow the
// page (when q.Limit cut it short). Finished tables that left memory are
// not listed; Get still reads them back from the store. It costs a
// binary search plus one look at each table until the page is full.
func (h *Host[A, V, B]) List(q ListQuery) ([]Info, bool) {
	want := states{every: len(q.States) == 0}
	for _, s := range q.States {
		if int(s) < len(want.in) {
			want.in[s] = true
		}
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	n := len(h.index)
	// The index from i on, in the query's direction.
	i, step := 0, 1
	if q.NewestFirst {
		i, step = n-1, -1
	}
	if q.After != nil {
		j, found := slices.BinarySearchFunc(h.index, *q.After, comparePlaced[A, V, B])
		switch {
		case !q.NewestFirst && found:
			i = j + 1
		case !q.NewestFirst:
			i = j
		default:
			i = j - 1 // the last key before After, found or not
		}
	}
	var out []Info
	for ; i >= 0 && i < n; i += step {
		t := h.index[i].t
		if q.Limit > 0 && len(out) == q.Limit {
			if t.matches(&want) {
				return out, true
			}
			continue
		}
		out = t.appendInfo(out, &want)
	}
	return out, false
}
