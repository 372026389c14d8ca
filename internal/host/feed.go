package host

import (
	"context"
	"errors"
	"slices"
)

// Feed is a seat's follow that its reader pulls from instead of waiting
// on: Follow without a goroutine. The table calls the feed's notify when
// events may be ready for it, and the reader then takes whatever is ready
// with Drain, which never waits. So a server that serves many follows on
// one connection (the Multiplex stream) spends a goroutine on none of
// them while they are caught up.
//
// A Feed is its reader's: Drain, Fetch and Close must not run at once.
type Feed[A comparable, V, B any] struct {
	h      *Host[A, V, B]
	r      reader[A, V, B]
	seat   int
	snap   *Snapshot[V] // the snapshot to send first, if any
	notify func()
	end    error // why the follow ended, once it did (errEnded: the game did)
	closed bool
}

// errEnded is a Feed's end after the game's last event.
var errEnded = errors.New("host: the follow ended")

// ErrNoRoom is what a Drain's send returns to stop before an item it has
// no room for: the feed keeps the item, and the next Drain sends it first.
var ErrNoRoom = errors.New("host: no room for the item")

// Drained is what a Drain left to do.
type Drained uint8

const (
	// DrainWait: nothing more is ready; notify is called when there may be.
	DrainWait Drained = iota + 1
	// DrainFull: send returned ErrNoRoom; Drain again when there is room.
	DrainFull
	// DrainFetch: the next events are in the store; call Fetch (it
	// blocks, so on a goroutine that may wait), then Drain.
	DrainFetch
	// DrainEnd: the follow is over, for the error returned with it (nil:
	// the game is over and every event was sent); Close it.
	DrainEnd
)

// Subscribe opens a seat's follow as Follow does - the token checked, the
// snapshot when afterSeq is 0 (after a claim dwell that holds it back,
// which Subscribe waits for), the seat's offer when the stream opens, the
// seat counted as connected until Close - and returns it as a Feed to be
// drained. Notify is called by the table, from whatever goroutine runs it,
// whenever events may be ready for the feed: on every append to the log,
// at the end of the game, when the seat's player leaves and when the table
// stops. It may be called before Subscribe returns, and after Close, and
// must be cheap, must not block and must not panic (it runs as the
// table's runner): mark the feed and wake its reader.
// The table calls it holding none of its own locks, but it may run in a
// call of the reader's into the table (Subscribe, Close), so it must not
// wait for the reader either.
func (h *Host[A, V, B]) Subscribe(ctx context.Context, id, token string, afterSeq uint64, notify func()) (*Feed[A, V, B], error) {
	f := &Feed[A, V, B]{h: h, notify: notify}
	t, o, err := h.openSeat(ctx, id, token, afterSeq, f)
	if err != nil {
		return nil, err
	}
	f.seat, f.snap = o.seat, o.snap
	f.r = t.reader(o.seat, afterSeq, 0, o.revoked)
	f.r.batch = true
	h.obs.StreamOpened(false)
	return f, nil
}

// Drain hands send every item ready now, in Follow's order and numbering
// (the snapshot first, if any), and returns what is left to do, without
// waiting: DrainWait when nothing more is ready, DrainFull when send
// refused an item with ErrNoRoom, DrainFetch when the next events must be
// read from the store, DrainEnd when the follow is over, with Follow's
// error (nil after the game's last event, ErrWrongToken once the seat's
// player left, the table's end if it stopped, or send's own error). As
// with Follow, an item's Event is the feed's only until send returns.
func (f *Feed[A, V, B]) Drain(send func(Item[V, B]) error) (Drained, error) {
	if f.end != nil {
		return f.ended()
	}
	if f.snap != nil {
		if err := send(Item[V, B]{Snapshot: f.snap}); err != nil {
			return f.stop(err)
		}
		f.r.cursor, f.snap = f.snap.Seq, nil
	}
	st, _, err := f.r.step(context.Background(), func(e *Event[B], wire []byte) error {
		return send(Item[V, B]{Event: e, Wire: wire})
	})
	switch {
	case err != nil:
		return f.stop(err)
	case st == stepDone:
		f.end = errEnded
		return DrainEnd, nil
	case st == stepFetch:
		return DrainFetch, nil
	}
	return DrainWait, nil
}

// stop is Drain's answer to err.
func (f *Feed[A, V, B]) stop(err error) (Drained, error) {
	if errors.Is(err, ErrNoRoom) {
		return DrainFull, nil
	}
	f.end = err
	return f.ended()
}

func (f *Feed[A, V, B]) ended() (Drained, error) {
	if f.end == errEnded {
		return DrainEnd, nil
	}
	return DrainEnd, f.end
}

// Fetch reads from the store the events that Drain asked for with
// DrainFetch; it blocks until the store answers. An error ends the
// follow (the next Drain reports it).
func (f *Feed[A, V, B]) Fetch(ctx context.Context) error {
	if f.end != nil {
		return nil
	}
	if err := f.r.fetch(ctx); err != nil {
		f.end = err
		return err
	}
	return nil
}

// Close ends the follow: the seat counts one stream fewer, and notify is
// called no more (but for a call on its way). It may run table code on
// the caller's goroutine, notifies of other feeds included, so the caller
// must not hold what a notify takes. Closing twice is a no-op.
func (f *Feed[A, V, B]) Close() {
	if f.closed {
		return
	}
	f.closed = true
	t := f.r.t
	t.post(func() {
		t.streamClosed(f.seat)
		t.unsubscribe(f)
	})
	f.h.obs.StreamClosed(false)
}

// wake calls the notify of every feed of the table; the runner calls it
// holding no lock of the table, after the change is visible to a Drain.
func (t *table[A, V, B]) wake() {
	for _, f := range t.subs {
		f.notify()
	}
}

// unsubscribe forgets a feed: the caller is the table's runner.
func (t *table[A, V, B]) unsubscribe(f *Feed[A, V, B]) {
	if i := slices.Index(t.subs, f); i >= 0 {
		last := len(t.subs) - 1
		t.subs[i], t.subs[last] = t.subs[last], nil
		t.subs = t.subs[:last]
	}
}
