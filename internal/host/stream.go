package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// Follow streams a seat's events to send: a snapshot of the seat's view
// first when afterSeq is 0, then every event the seat may see with a
// sequence number above the snapshot's (or above afterSeq), in order. The
// numbers are the seat's own: 1, 2, 3, ... over what it may see. It returns
// nil after the game's last event, the error of send, ctx.Err() or
// ErrClosed.
//
// A seat that has something to do when its stream opens gets its offer
// (an Out.Offer event) as an event, as if it had just happened: the
// snapshot is numbered just before the offer (its Seq is the offer's
// minus one), and the offer and whatever followed it are delivered as
// usual. No number is given twice and none is skipped: the offer keeps the
// number it always had, and only host notices can follow it before the
// seat acts, which change nothing in the game's view. A stream resumed
// with afterSeq gets the offer if it comes after afterSeq, like any event.
//
// During a claim dwell the game is ahead of what was published, so a
// snapshot waits for the dwell to end - for every seat alike, except one
// the open window still waits for, whose view holds nothing new.
//
// Send runs in the caller's goroutine, so a slow client slows only its own
// stream: the table goes on appending to its log, and the stream catches up
// from the log when send returns.
// An item's Event is the stream's own only until send returns (the next
// event reuses it): a send that keeps the event keeps a copy.
//
// A finished table that left memory is read back from the store, so a
// seat may still resume to the end of its game; a stream open when its
// table leaves memory still sends every event of the game, while that of
// an abandoned table ends with its EvictedError.
func (h *Host[A, V, B]) Follow(ctx context.Context, id, token string, afterSeq uint64, send func(Item[V, B]) error) error {
	t, o, err := h.openSeat(ctx, id, token, afterSeq, nil)
	if err != nil {
		return err
	}
	defer t.post(func() { t.streamClosed(o.seat) })
	h.obs.StreamOpened(false)
	defer h.obs.StreamClosed(false)
	cursor := afterSeq
	if o.snap != nil {
		if err := send(Item[V, B]{Snapshot: o.snap}); err != nil {
			return err
		}
		cursor = o.snap.Seq
	}
	r := t.reader(o.seat, cursor, 0, o.revoked)
	return r.feed(ctx, func(e *Event[B], wire []byte) error { return send(Item[V, B]{Event: e, Wire: wire}) })
}

// openSeat opens a seat's stream as Follow and Subscribe do, on the table
// in memory or, for a finished game that left it, on the table read back
// from the store; sub, if not nil, is woken by the table from then on.
func (h *Host[A, V, B]) openSeat(ctx context.Context, id, token string, afterSeq uint64, sub *Feed[A, V, B]) (*table[A, V, B], opened[V], error) {
	t, err := h.table(ctx, id)
	if err != nil {
		return nil, opened[V]{}, err
	}
	o, err := t.open(ctx, token, afterSeq, sub)
	if errors.Is(err, ErrEvicted) && !t.ro {
		// The table left memory before the stream opened: a finished
		// game is read back from the store, as a moment later.
		if t2, err2 := h.table(ctx, id); err2 == nil {
			t = t2
			o, err = t.open(ctx, token, afterSeq, sub)
		}
	}
	if err != nil {
		return nil, opened[V]{}, err
	}
	return t, o, nil
}

// opened is a seat's stream that counts as open.
type opened[V any] struct {
	seat    int
	snap    *Snapshot[V]
	revoked <-chan struct{}
	wait    <-chan struct{} // the end of the claim dwell that holds the snapshot back
}

// open opens a seat's stream on the table, with its snapshot when
// afterSeq is 0, once no claim dwell holds the snapshot back. A sub (a
// Subscribe's feed, or nil) is woken by the table from then on.
func (t *table[A, V, B]) open(ctx context.Context, token string, afterSeq uint64, sub *Feed[A, V, B]) (opened[V], error) {
	for {
		openSeat := -1 // set by the table's runner once the stream counts
		o, err := call(ctx, t, func() (opened[V], error) {
			s, err := t.seatOf(token)
			if err != nil {
				return opened[V]{}, err
			}
			head := t.count(s)
			if afterSeq > head {
				return opened[V]{}, fmt.Errorf("after seq: %w", &SeqAheadError{Seq: afterSeq, Newest: head})
			}
			if t.seats[s].conns >= t.h.cfg.MaxSeatStreams {
				return opened[V]{}, fmt.Errorf("seat %d has %d: %w", s, t.seats[s].conns, ErrTooManyStreams)
			}
			var snap *Snapshot[V]
			if afterSeq == 0 {
				if t.hold.on && !t.awaited(s) {
					return opened[V]{wait: t.hold.ends}, nil
				}
				snap = &Snapshot[V]{Seq: t.snapshotSeq(s, head), View: t.game.View(s), Left: t.left(s)}
			}
			// The snapshot is taken before the return notice, which the
			// stream then delivers as an event.
			if err := t.streamOpened(s); err != nil {
				t.seats[s].conns--
				return opened[V]{}, err
			}
			openSeat = s
			if sub != nil {
				t.subs = append(t.subs, sub)
			}
			return opened[V]{seat: s, snap: snap, revoked: t.seats[s].revoked}, nil
		})
		if err != nil {
			if ctx.Err() != nil {
				// The caller gave up, maybe with the open queued or
				// running: close it after it, or the seat stays
				// connected for ever (no bot, one stream fewer allowed).
				t.post(func() {
					if openSeat >= 0 {
						t.streamClosed(openSeat)
						if sub != nil {
							t.unsubscribe(sub)
						}
					}
				})
			}
			return opened[V]{}, err
		}
		if o.wait == nil {
			return o, nil
		}
		select {
		case <-o.wait:
		case <-ctx.Done():
			return opened[V]{}, ctx.Err()
		case <-t.stopped:
			return opened[V]{}, t.stopErr
		}
	}
}

// snapshotSeq is the number of a snapshot of seat s taken with head
// events: just before the seat's offer if one stands (the game waits for
// the seat and nothing of the game happened since the offer), head
// otherwise.
func (t *table[A, V, B]) snapshotSeq(s int, head uint64) uint64 {
	st := &t.seats[s]
	if st.offer == 0 || st.offer != st.lastSeen || st.offer > head {
		return head
	}
	if t.hold.on && !t.awaited(s) {
		return head
	}
	if !slices.Contains(t.game.Pending().Seats, s) {
		return head
	}
	return st.offer - 1
}

// Watch streams a table's public events to send, each once the table's
// spectator delay has passed since it happened, starting after afterSeq (in
// the spectators' numbering of the public events). It returns like Follow;
// as there, e is send's only until it returns.
func (h *Host[A, V, B]) Watch(ctx context.Context, id string, afterSeq uint64, send func(*Event[B]) error) error {
	return h.WatchEncoded(ctx, id, afterSeq, func(e *Event[B], _ []byte) error { return send(e) })
}

// WatchEncoded is Watch, with each event's encoding by Config.Encode
// (nil without one), shared with the other streams: it must not be
// changed.
func (h *Host[A, V, B]) WatchEncoded(ctx context.Context, id string, afterSeq uint64, send func(e *Event[B], wire []byte) error) error {
	t, err := h.table(ctx, id)
	if err != nil {
		return err
	}
	if head := t.info().LastSeq; afterSeq > head {
		return fmt.Errorf("after seq: %w", &SeqAheadError{Seq: afterSeq, Newest: head})
	}
	h.obs.StreamOpened(true)
	defer h.obs.StreamClosed(true)
	r := t.reader(-1, afterSeq, t.set.SpectatorDelay, nil)
	return r.feed(ctx, send)
}

// reader is one viewer's place in a table's events: a seat's, or the
// public's (viewer -1). Follow and Watch read with feed, which waits for
// new events on the reader's goroutine; a Feed (Subscribe) reads with
// step alone and waits for nothing. Both deliver through step, so the
// two kinds of stream number, encode and end alike.
type reader[A comparable, V, B any] struct {
	t       *table[A, V, B]
	viewer  int           // a seat, or -1 for the public
	v       int           // the viewer's place in the archive's counts
	cursor  uint64        // the viewer's seq of the last event sent
	delay   time.Duration // the spectators' delay
	revoked <-chan struct{}
	opened  time.Time // events logged from then on count in the fan-out latency
	// cur is the event being sent, numbered for this viewer: one per
	// stream, not one per event (an allocation per event and viewer), so
	// send must not keep it after it returns.
	cur Event[B]
	// pend are events read back from the store (fetch) not sent yet.
	pend []Event[B]
	// batch: the reader is a Feed's, whose send never waits, so one
	// reading of the clock, now, serves every event of a step for the
	// fan-out latency (a reading per event and viewer was a tenth of
	// delivering one).
	batch bool
	now   time.Time
}

func (t *table[A, V, B]) reader(viewer int, cursor uint64, delay time.Duration, revoked <-chan struct{}) reader[A, V, B] {
	v := viewer
	if v < 0 {
		v = len(t.seats)
	}
	return reader[A, V, B]{t: t, viewer: viewer, v: v, cursor: cursor, delay: delay, revoked: revoked, opened: t.clk.Now()}
}

// stepped is what a reader's step left to do.
type stepped uint8

const (
	stepWait  stepped = iota + 1 // nothing ready: the next append closes the channel step returned (a Feed's: none, notify wakes it)
	stepFetch                    // the next events are in the store: fetch them, then step again
	stepDone                     // the game is over and everything was sent
)

// feed sends the viewer's events after its cursor, numbered in its own
// numbering, waiting for new ones, until the game is over and everything
// was sent. A stream whose player left (revoked closed) ends with
// ErrWrongToken at once: the seat may have a new player by then.
func (r *reader[A, V, B]) feed(ctx context.Context, send func(*Event[B], []byte) error) error {
	t := r.t
	for {
		st, changed, err := r.step(ctx, send)
		if err != nil {
			return err
		}
		switch st {
		case stepDone:
			return nil
		case stepFetch:
			if err := r.fetch(ctx); err != nil {
				return err
			}
			continue
		}
		select {
		case <-changed:
		case <-r.revoked:
			return ErrWrongToken
		case <-ctx.Done():
			return ctx.Err()
		case <-t.stopped:
			return t.stopErr
		}
	}
}

// step sends every event of the viewer that is ready now and reports
// what is left: it never waits (but for a spectator's delay, which only
// feed's streams have) and never reads the store. An error of send ends
// the step before the event it refused, which stays next. A stream whose
// player left ends with ErrWrongToken, one whose table stopped with its
// stopErr, once everything logged before was sent.
func (r *reader[A, V, B]) step(ctx context.Context, send func(*Event[B], []byte) error) (stepped, <-chan struct{}, error) {
	t := r.t
	r.now = time.Time{}
	for len(r.pend) > 0 {
		if err := r.deliver(ctx, &r.pend[0], -1, send); err != nil {
			return 0, nil, err
		}
		r.pend[0] = Event[B]{}
		r.pend = r.pend[1:]
	}
	for {
		// The archive, the log and the indexes are read together: a game
		// in play moves the rounds a stored snapshot holds from its log to
		// the archive (snapshot.go, archive).
		t.mu.RLock()
		arch := t.arch
		if r.cursor < arch.count(r.v) {
			// Before a stored snapshot (the one the table was recovered
			// from, or a later one): the events are in the store.
			t.mu.RUnlock()
			return stepFetch, nil, nil
		}
		// The log and the viewers' indexes are only appended to, or
		// replaced by shorter copies, so the views taken may be read
		// after the lock is released (chunked.go).
		index := t.public
		if r.viewer >= 0 {
			index = t.seen[r.viewer]
		}
		off := int(r.cursor - arch.count(r.v))
		events, base, done := t.events, t.base, t.done
		var changed <-chan struct{}
		if off == index.len() && !done && !r.batch {
			// Only feed waits on it; a Feed is woken by notify.
			changed = t.changedChan()
		}
		t.mu.RUnlock()
		for k := off; k < index.len(); k++ {
			i := *index.at(k)
			e := events.at(int(uint64(i) - base)).event()
			if err := r.deliver(ctx, &e, i, send); err != nil {
				return 0, nil, err
			}
		}
		if done {
			return stepDone, nil, nil
		}
		if off < index.len() {
			continue
		}
		select {
		case <-r.revoked:
			return 0, nil, ErrWrongToken
		case <-t.stopped:
			return 0, nil, t.stopErr
		default:
		}
		return stepWait, changed, nil
	}
}

// fetch reads the viewer's next events from the store (those of the
// archive segment that holds its next event) for step to send. It blocks
// on the store.
func (r *reader[A, V, B]) fetch(ctx context.Context) error {
	t := r.t
	t.mu.RLock()
	arch := t.arch
	t.mu.RUnlock()
	if r.cursor >= arch.count(r.v) {
		return nil
	}
	evs, err := t.archived(ctx, arch, r.v, r.cursor)
	if err != nil {
		return err
	}
	r.pend = evs
	return nil
}

// deliver sends event e, number i of the table's log (-1: one read back
// from the store), as the viewer's next; the cursor moves only if send
// took it.
func (r *reader[A, V, B]) deliver(ctx context.Context, e *Event[B], i int32, send func(*Event[B], []byte) error) error {
	select {
	case <-r.revoked:
		return ErrWrongToken
	default:
	}
	t := r.t
	if r.delay > 0 {
		if err := t.sleepUntil(ctx, e.At.Add(r.delay)); err != nil {
			return err
		}
	}
	r.cur = *e
	wire := t.wire(i, &r.cur)
	r.cur.Seq = r.cursor + 1
	if err := send(&r.cur, wire); err != nil {
		return err
	}
	r.cursor++
	if r.viewer >= 0 && !r.cur.At.Before(r.opened) {
		if !r.batch || r.now.IsZero() {
			r.now = t.clk.Now()
		}
		t.h.obs.EventSent(r.now.Sub(r.cur.At))
	}
	return nil
}

// sleepUntil waits for a spectator's delay. It waits for the host, not
// the table: a table that leaves memory with its game over still owes the
// stream its last events.
func (t *table[A, V, B]) sleepUntil(ctx context.Context, at time.Time) error {
	d := at.Sub(t.clk.Now())
	if d <= 0 {
		return nil
	}
	ch := make(chan struct{})
	tm := t.clk.AfterFunc(d, func() { close(ch) })
	defer tm.Stop()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-t.h.quit:
		return ErrClosed
	}
}
