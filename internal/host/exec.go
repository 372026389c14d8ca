package host

import (
	"context"

	"go.uber.org/zap"
)

// A table has no goroutine of its own. Calls into it (requests, timers,
// streams opening and closing) are serialized by a small executor: the
// caller that finds the table idle becomes its runner and runs its call
// on its own goroutine; a caller that finds it busy queues its call, which
// runs after every call queued before it. When the runner's own call is
// done and others queued meanwhile, it hands them to a new goroutine that
// runs the queue until it is empty, and returns: a caller waits for its own
// call, never for the calls of others that came after it. So an idle table
// costs no goroutine and no stack, a call on an idle table costs no
// goroutine switch, and a goroutine exists only while calls pile up.
//
// The guarantees are those of a goroutine per table: one call at a time,
// in the order queued; a panic in a call sets the table aside (guard,
// setAside) and the caller's goroutine goes on; a call that takes the table
// out of memory (t.exit) stops it, and the calls still queued are dropped,
// their callers answered with stopErr; Host.Close stops an idle table at
// once and a busy one after its current call, and waits for that (the
// host's wg counts the tables not stopped). A call must not wait for
// another call on its own table (call, do): that never ends, as it did not
// with a goroutine per table. It may post to it: post only queues when the
// table is busy, as it is then.

// entry is how a call got onto the table (enter).
type entry uint8

const (
	entryStopped entry = iota // the table stopped: the call is refused
	entryQueued               // the table is busy: the call waits in the queue
	entryRunner               // the table was idle: the caller is its runner now
	entryGaveUp               // the table is busy and the caller's context ended: not queued
)

// enter makes the caller the table's runner if the table is idle; if the
// table is busy, f is queued (a nil f is not: the caller only asks), unless
// ctx (if not nil) ended: a caller that gave up queues nothing.
func (t *table[A, V, B]) enter(ctx context.Context, f func()) entry {
	t.xmu.Lock()
	defer t.xmu.Unlock()
	switch {
	case t.over:
		return entryStopped
	case t.running:
		if f == nil {
			return entryQueued
		}
		if ctx != nil {
			select {
			case <-ctx.Done():
				return entryGaveUp
			default:
			}
		}
		t.queue = append(t.queue, f)
		return entryQueued
	}
	t.running = true
	return entryRunner
}

// post runs f on the table, in the caller's goroutine if the table is
// idle, or queues it for the runner; it does not wait for a busy table,
// so a timer never blocks on a long call. It gives up if the table
// stopped. On a table read back from the store f runs at once.
func (t *table[A, V, B]) post(f func()) {
	if t.ro {
		f()
		return
	}
	if t.enter(nil, f) == entryRunner && t.runOne(f) {
		t.letGo()
	}
}

// postAsync queues f and, if the table is idle, runs it on a new
// goroutine: for callers that must not run table code themselves
// (Recover, which reads the store while it resumes tables).
func (t *table[A, V, B]) postAsync(f func()) {
	if t.enter(nil, f) == entryRunner {
		go func() {
			if t.runOne(f) {
				t.letGo()
			}
		}()
	}
}

// runOne runs f as the table's runner. It reports false if the table
// stopped (f panicked or took the table out of memory): the caller is its
// runner no more.
func (t *table[A, V, B]) runOne(f func()) bool {
	return t.after(t.guard(f))
}

// after is the runner's bookkeeping after a call that ended with dmg (nil
// unless it panicked): it stops the table that the call set aside or took
// out of memory, and reports whether the table goes on.
func (t *table[A, V, B]) after(dmg *DamagedError) bool {
	switch {
	case dmg != nil:
		t.setAside(dmg)
	case t.exit:
		t.stopClocks() // stopErr was set by evict or giveUp
	default:
		return true
	}
	t.stop()
	return false
}

// letGo ends the caller's turn as the runner: the table is idle again,
// or the calls queued meanwhile go to a new goroutine, or the table stops
// if Close asked it to.
func (t *table[A, V, B]) letGo() {
	t.xmu.Lock()
	switch {
	case t.quit:
		t.xmu.Unlock()
		t.closeNow()
	case len(t.queue) > 0:
		t.xmu.Unlock()
		go t.drain()
	default:
		t.running = false
		t.xmu.Unlock()
	}
}

// drain runs the queued calls, as the table's runner, until none is left.
func (t *table[A, V, B]) drain() {
	for {
		t.xmu.Lock()
		if t.quit {
			t.xmu.Unlock()
			t.closeNow()
			return
		}
		if len(t.queue) == 0 {
			t.running = false
			t.xmu.Unlock()
			return
		}
		f := t.queue[0]
		t.queue[0] = nil
		t.queue = t.queue[1:]
		if len(t.queue) == 0 {
			t.queue = t.queue[:0:0] // let the backing array go with the burst
		}
		t.xmu.Unlock()
		if !t.runOne(f) {
			return
		}
	}
}

// shut is Host.Close for one table: an idle table stops at once, in the
// caller's goroutine; a busy one when its current call returns.
func (t *table[A, V, B]) shut() {
	t.xmu.Lock()
	if t.over {
		t.xmu.Unlock()
		return
	}
	if t.running {
		t.quit = true
		t.xmu.Unlock()
		return
	}
	t.running = true
	t.xmu.Unlock()
	t.closeNow()
}

// closeNow stops the table for Host.Close; the caller is its runner.
func (t *table[A, V, B]) closeNow() {
	t.stopClocks()
	t.stopErr = ErrClosed
	t.stop()
}

// stop ends the table: the calls queued are dropped (their callers get
// stopErr, which the runner set before), later ones are refused, streams
// end. The caller is its runner, for the last time.
func (t *table[A, V, B]) stop() {
	if w := t.writing; w != nil {
		// A snapshot write in flight ends before the table does: Close
		// returns with the store quiet, and a table released or evicted
		// writes nothing once it is gone. Its outcome is dropped with the
		// queue, and a snapshot waiting is not written: a table that
		// leaves memory needs neither.
		<-w.done
	}
	t.xmu.Lock()
	t.over, t.running = true, false
	dropped := len(t.queue)
	t.queue = nil
	t.xmu.Unlock()
	if dropped > 0 {
		t.log.Debug("table stopped with calls queued", zap.Int("dropped", dropped))
	}
	close(t.stopped)
	t.wake()
	t.cancel()
	t.h.wg.Done()
}

// callOn runs f on the table and waits for its result: at once, in the
// caller's goroutine, if the table is idle (no closure, no channel: the
// path of every Act), or after the calls queued before it. If ctx ends
// first, f may still run: a retry with the same request id then gets its
// answer. On a table read back from the store, which nobody else sees,
// f runs in the caller's goroutine. If the table stops before f ran,
// callOn returns why (ErrClosed, or an EvictedError).
func callOn[R any, A comparable, V, B any](ctx context.Context, t *table[A, V, B], f func(*table[A, V, B]) (R, error)) (R, error) {
	if r, err, ran := runIdle(t, f); ran {
		return r, err
	}
	var zero R
	type result struct {
		r   R
		err error
	}
	ch := make(chan result, 1)
	g := func() {
		r, err := f(t)
		t.refresh() // before the answer, so the caller reads its own write
		ch <- result{r, err}
	}
	switch t.enter(ctx, g) {
	case entryStopped:
		return zero, t.stopErr
	case entryGaveUp:
		return zero, ctx.Err()
	case entryRunner: // idle again since the first look
		if t.runOne(g) {
			t.letGo()
		}
	}
	select {
	case res := <-ch:
		return res.r, res.err
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-t.stopped:
		// f may have run just before the table stopped: its answer is
		// then the one to give (a join done, a stream opened).
		select {
		case res := <-ch:
			return res.r, res.err
		default:
			return zero, t.stopErr
		}
	}
}

// runIdle is callOn's path for an idle table alone: f runs at once in
// the caller's goroutine if the table is idle or read back from the
// store, and ran is false, f not run, if it is busy. f does not escape
// (callOn's queued path keeps it), so a caller may try runIdle with a
// closure that stays on its stack before it makes one for callOn.
func runIdle[R any, A comparable, V, B any](t *table[A, V, B], f func(*table[A, V, B]) (R, error)) (r R, err error, ran bool) {
	if t.ro {
		r, err = f(t)
		t.refresh()
		return r, err, true
	}
	switch t.enter(nil, nil) {
	case entryStopped:
		return r, t.stopErr, true
	case entryRunner:
		r, err, dmg := runGuarded(t, f)
		if t.after(dmg) {
			t.letGo()
		} else if dmg != nil {
			var zero R
			return zero, t.stopErr, true
		}
		// If f took the table out of memory (CloseWaiting, a release),
		// its answer is still the one to give.
		return r, err, true
	}
	return r, nil, false
}

// runGuarded is guard for a call with a result, without a closure.
func runGuarded[R any, A comparable, V, B any](t *table[A, V, B], f func(*table[A, V, B]) (R, error)) (r R, err error, dmg *DamagedError) {
	defer t.catch(&dmg)
	r, err = f(t)
	t.refresh()
	t.flush()
	return r, err, nil
}
