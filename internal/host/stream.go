package host

import (
	"context"
	"fmt"
	"time"
)

// Follow streams a seat's events to send: a snapshot of the seat's view
// first when afterSeq is 0, then every event the seat may see with a
// sequence number above the snapshot's (or above afterSeq), in order. It
// returns nil after the game's last event, the error of send, ctx.Err() or
// ErrClosed.
//
// Send runs in the caller's goroutine, so a slow client slows only its own
// stream: the table goes on appending to its log, and the stream catches up
// from the log when send returns.
func (h *Host[A, V, B]) Follow(ctx context.Context, id, token string, afterSeq uint64, send func(Item[V, B]) error) error {
	t, err := h.table(id)
	if err != nil {
		return err
	}
	type opened struct {
		seat    int
		snap    *Snapshot[V]
		revoked <-chan struct{}
	}
	o, err := call(ctx, t, func() (opened, error) {
		s, err := t.seatOf(token)
		if err != nil {
			return opened{}, err
		}
		head := t.head()
		if afterSeq > head {
			return opened{}, fmt.Errorf("after seq %d, newest %d: %w", afterSeq, head, ErrSeqAhead)
		}
		var snap *Snapshot[V]
		if afterSeq == 0 {
			snap = &Snapshot[V]{Seq: head, View: t.game.View(s)}
		}
		// The snapshot is taken before the return notice, which the stream
		// then delivers as an event.
		if err := t.streamOpened(s); err != nil {
			t.seats[s].conns--
			return opened{}, err
		}
		return opened{s, snap, t.seats[s].revoked}, nil
	})
	if err != nil {
		return err
	}
	defer t.post(func() { t.streamClosed(o.seat) })
	cursor := afterSeq
	if o.snap != nil {
		if err := send(Item[V, B]{Snapshot: o.snap}); err != nil {
			return err
		}
		cursor = o.snap.Seq
	}
	return t.feed(ctx, cursor, 0, o.revoked,
		func(e *Event[B]) bool { return e.To.Sees(o.seat) },
		func(e *Event[B]) error { return send(Item[V, B]{Event: e}) })
}

// Watch streams a table's public events to send, each once the table's
// spectator delay has passed since it happened, starting after afterSeq. It
// returns like Follow.
func (h *Host[A, V, B]) Watch(ctx context.Context, id string, afterSeq uint64, send func(*Event[B]) error) error {
	t, err := h.table(id)
	if err != nil {
		return err
	}
	if head := t.head(); afterSeq > head {
		return fmt.Errorf("after seq %d, newest %d: %w", afterSeq, head, ErrSeqAhead)
	}
	return t.feed(ctx, afterSeq, t.set.SpectatorDelay, nil,
		func(e *Event[B]) bool { return !e.To.Private }, send)
}

// feed sends the log's events after cursor that pass keep, waiting for new
// ones, until the game is over and everything was sent. A stream whose
// player left (revoked closed) ends with ErrWrongToken at once: the seat
// may have a new player by then.
func (t *table[A, V, B]) feed(ctx context.Context, cursor uint64, delay time.Duration, revoked <-chan struct{}, keep func(*Event[B]) bool, send func(*Event[B]) error) error {
	for {
		t.mu.RLock()
		// The log only grows and its events never change, so the slice
		// may be read after the lock is released.
		batch := t.events[cursor:]
		done, changed := t.done, t.changed
		t.mu.RUnlock()
		for i := range batch {
			e := &batch[i]
			cursor = e.Seq
			if !keep(e) {
				continue
			}
			select {
			case <-revoked:
				return ErrWrongToken
			default:
			}
			if delay > 0 {
				if err := t.sleepUntil(ctx, e.At.Add(delay)); err != nil {
					return err
				}
			}
			if err := send(e); err != nil {
				return err
			}
		}
		if done {
			return nil
		}
		if len(batch) > 0 {
			continue
		}
		select {
		case <-changed:
		case <-revoked:
			return ErrWrongToken
		case <-ctx.Done():
			return ctx.Err()
		case <-t.stopped:
			return ErrClosed
		}
	}
}

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
	case <-t.stopped:
		return ErrClosed
	}
}
