package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// A table's life in memory. A table is held, with its timers, while
// its game may still change. Once the game is over it stays for
// Config.FinishedTTL, so that streams catch up and clients read the
// result; a table that never starts stays until nobody has taken or
// given up a seat for Config.IdleTTL. Then it is evicted: the store is
// told (a finished game is marked finished and kept; an abandoned table,
// which has nothing worth keeping, is deleted), the table leaves the
// host's map and its timers stop. A stream of a finished
// game still sends every event to the end (the log never changes again);
// those of an abandoned table end with its EvictedError.
//
// A finished table the store keeps is not lost: a request that names it
// reads it back from the store, restored from its final snapshot as
// recovery would, for that request alone (read-only: every change is
// refused as for any finished game, a retried request id gets its
// answer). A store that keeps nothing (Config.ForgetEvicted, or a game
// pruned after Config.KeepGames) leaves a tombstone: the host remembers
// the last evicted ids, so that asking for one says why it is gone.

// Eviction is why a table left memory.
type Eviction uint8

// The reasons for an eviction.
const (
	EvictFinished  Eviction = iota + 1 // its game ended FinishedTTL ago
	EvictAbandoned                     // it never started, and nobody took or gave up a seat for IdleTTL
	EvictClosed                        // it never started, and Host.CloseWaiting closed it
)

var evictionNames = [...]string{"", "finished", "abandoned", "closed"}

func (e Eviction) String() string {
	if int(e) < len(evictionNames) && e != 0 {
		return evictionNames[e]
	}
	return "invalid"
}

// ErrEvicted is what every EvictedError matches.
var ErrEvicted = errors.New("table evicted")

// EvictedError is the error about a table the host no longer holds in
// memory and cannot read back from its store. It matches ErrEvicted and
// ErrNotFound.
type EvictedError struct {
	ID     string
	Reason Eviction
	At     time.Time     // when it left memory
	After  time.Duration // the FinishedTTL or IdleTTL that had passed
}

func (e *EvictedError) Error() string {
	if e.Reason == EvictClosed {
		return fmt.Sprintf("table %s was closed at %s before it started", e.ID, e.At.UTC().Format(time.RFC3339))
	}
	if e.Reason == EvictAbandoned {
		return fmt.Sprintf("table %s was closed at %s: it did not start, and no seat was taken or given up for %v",
			e.ID, e.At.UTC().Format(time.RFC3339), e.After)
	}
	return fmt.Sprintf("table %s is no longer held: its game ended and it left memory at %s, %v later, and no store keeps it",
		e.ID, e.At.UTC().Format(time.RFC3339), e.After)
}

// Is makes errors.Is(err, ErrEvicted) and errors.Is(err, ErrNotFound)
// hold.
func (e *EvictedError) Is(target error) bool { return target == ErrEvicted || target == ErrNotFound }

// maxTombstones bounds the evicted ids a host remembers (about 100 bytes
// each).
const maxTombstones = 1 << 14

// tombstones are the latest evicted tables, oldest first in a ring.
type tombstones struct {
	byID map[string]*EvictedError
	ring []string
	next int
}

func (g *tombstones) add(e *EvictedError) {
	if g.byID == nil {
		g.byID = map[string]*EvictedError{}
	}
	if len(g.ring) < maxTombstones {
		g.ring = append(g.ring, e.ID)
	} else {
		delete(g.byID, g.ring[g.next])
		g.ring[g.next] = e.ID
		g.next = (g.next + 1) % maxTombstones
	}
	g.byID[e.ID] = e
}

func (g *tombstones) find(id string) *EvictedError { return g.byID[id] }

// evictRetry is how long a table that could not be evicted (the store
// refused) waits before it tries again.
const evictRetry = time.Minute

// startRetry is how long a table whose seats are all taken but whose
// start the store refused waits before it tries to start again.
const startRetry = time.Second

// armEvict starts the clock after which the table leaves memory, for the
// table as it is now: IdleTTL while it waits for players, FinishedTTL
// once its game ended, none while it plays. A waiting table whose seats
// are all taken is not waiting for players but for the store: its clock
// retries the start instead, so that the players are not left at a
// table that never starts (and is then closed as abandoned).
func (t *table[A, V, B]) armEvict() {
	var d time.Duration
	switch t.state {
	case Waiting:
		if t.full() {
			t.armStartRetry()
			return
		}
		d = t.h.cfg.IdleTTL
	case Finished:
		d = t.h.cfg.FinishedTTL
	}
	t.armEvictAfter(d)
}

func (t *table[A, V, B]) armEvictAfter(d time.Duration) {
	t.stopEvict()
	if d <= 0 || t.ro {
		return
	}
	gen := t.evictGen
	t.evictTimer = t.clk.AfterFunc(d, func() { t.post(func() { t.evict(gen) }) })
}

func (t *table[A, V, B]) armStartRetry() {
	t.stopEvict()
	if t.ro {
		return
	}
	gen := t.evictGen
	t.evictTimer = t.clk.AfterFunc(startRetry, func() { t.post(func() { t.retryStart(gen) }) })
}

// retryStart starts a full table whose start the store refused.
func (t *table[A, V, B]) retryStart(gen uint64) {
	if gen != t.evictGen || t.state != Waiting || !t.full() {
		return
	}
	t.evictTimer = nil
	if err := t.start(); err != nil {
		t.log.Warn("auto start", zap.Error(err), zap.Duration("retry", startRetry))
		t.armStartRetry()
	}
}

func (t *table[A, V, B]) stopEvict() {
	if t.evictTimer != nil {
		t.evictTimer.Stop()
		t.evictTimer = nil
	}
	t.evictGen++
}

// mark tells the store that the game is over, so that recovery leaves the
// table alone from now on. A refusal is retried when the table leaves
// memory.
func (t *table[A, V, B]) mark() {
	if t.marked || t.ro {
		return
	}
	if err := t.store.Finish(t.ctx, t.rec.ID, t.finishedAt); err != nil {
		t.log.Warn("store the end of the game", zap.Error(err))
		return
	}
	t.marked = true
	t.dropLease()
}

// evict takes the table out of memory once the store agrees; the
// executor then stops the table and its timers (exec.go).
func (t *table[A, V, B]) evict(gen uint64) {
	if gen != t.evictGen || t.state == Playing {
		return
	}
	t.evictTimer = nil
	now := t.clk.Now()
	e := &EvictedError{ID: t.rec.ID, Reason: EvictFinished, At: now, After: t.h.cfg.FinishedTTL}
	forget := t.h.cfg.ForgetEvicted
	if t.state == Waiting {
		e.Reason, e.After, forget = EvictAbandoned, t.h.cfg.IdleTTL, true
		if t.closing {
			e.Reason, e.After = EvictClosed, 0
		}
	}
	var err error
	if forget {
		err = t.store.Delete(t.ctx, t.rec.ID)
	} else {
		// Marked, so that a restart leaves it in the store.
		t.mark()
		if !t.marked {
			err = errors.New("the store did not take the end of the game")
		}
	}
	if err != nil {
		t.log.Warn("table stays in memory: the store refused its eviction", zap.Stringer("reason", e.Reason),
			zap.Duration("retry", evictRetry), zap.Error(err))
		t.armEvictAfter(evictRetry)
		return
	}
	if t.state == Waiting {
		t.life(LifeClosed)
	}
	t.dropLease() // its end is stored, or it was deleted
	held := t.h.remove(t, e)
	t.exit, t.stopErr = true, e
	streams := 0
	for _, s := range t.seats {
		streams += s.conns
	}
	fields := []zap.Field{
		zap.Stringer("reason", e.Reason), zap.Stringer("state", t.state),
		zap.Duration("age", now.Sub(t.rec.Created)), zap.Duration("ttl", e.After),
		zap.Bool("stored", !forget), zap.Int("seat_streams", streams), zap.Int("tables_held", held),
	}
	t.mu.RLock()
	fields = append(fields, zap.Uint64("events", t.base+uint64(t.events.len())))
	t.mu.RUnlock()
	t.log.Info("table evicted", fields...)
}

// remove takes an evicted table out of the host and leaves its tombstone;
// it returns how many tables the host holds now.
func (h *Host[A, V, B]) remove(t *table[A, V, B], e *EvictedError) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.tables[t.rec.ID] == t {
		delete(h.tables, t.rec.ID)
		h.unplace(t)
		if t.state != Finished {
			h.unfinished.n.Add(-1)
		}
	}
	h.gone.add(e)
	return len(h.tables)
}

// readBack makes a finished table the host no longer holds out of the
// store, restored as recovery restores a table, for one request: it has
// no runner, arms no timer and writes nothing. Anything but a finished
// game there is not found.
func (h *Host[A, V, B]) readBack(ctx context.Context, id string) (*table[A, V, B], error) {
	notFound := fmt.Errorf("table %q: %w", id, ErrNotFound)
	if h.cfg.GameFor == nil || h.cfg.ForgetEvicted {
		return nil, notFound
	}
	start := h.cfg.Clock.Now()
	rec, snap, entries, err := h.cfg.Store.LoadTable(ctx, id)
	if errors.Is(err, ErrNoTable) {
		return nil, notFound
	}
	if errors.Is(err, ErrCorruptLog) {
		return nil, &DamagedError{ID: id, Err: err}
	}
	if err != nil {
		return nil, fmt.Errorf("table %q: read back: %w: %v", id, ErrUnavailable, err)
	}
	newGame, err := h.cfg.GameFor(rec)
	if err != nil {
		return nil, &DamagedError{ID: id, Err: err}
	}
	t, err := h.recoverTable(ctx, rec, newGame, snap, entries)
	switch {
	case errors.Is(err, ErrCorruptLog):
		return nil, &DamagedError{ID: id, Err: err}
	case err != nil:
		return nil, fmt.Errorf("table %q: read back: %w: %v", id, ErrUnavailable, err)
	}
	t.cancel() // it writes nothing
	if t.state != Playing || !t.game.Over() && !t.abandon {
		if h.cfg.Owner != nil && !t.abandon {
			// One node of a cluster: a game not over that this node
			// does not hold is another node's, or between two owners
			// (its owner died and none took it over yet). Not "no
			// such table": asked again, it is found.
			return nil, fmt.Errorf("table %q: on another node or between two: %w", id, ErrUnavailable)
		}
		// A table that has not finished is held in memory, or was
		// abandoned (and is being deleted).
		return nil, notFound
	}
	t.ro, t.state = true, Finished
	t.mu.Lock()
	t.done = true
	t.mu.Unlock()
	t.refresh()
	h.cfg.Log.Debug("table read back from the store", zap.String("table", id), zap.Duration("took", h.cfg.Clock.Now().Sub(start)))
	return t, nil
}

// pruneEvery is how often the store is pruned: every KeepGames, at most
// every hour, so that a game is deleted between KeepGames and twice that
// (or KeepGames plus an hour) after it ended.
func (h *Host[A, V, B]) pruneEvery() time.Duration { return min(h.cfg.KeepGames, time.Hour) }

// pruneStore deletes the games that ended more than KeepGames ago, then
// schedules the next pruning. It runs on a timer of its own; Close waits
// for it.
func (h *Host[A, V, B]) pruneStore() {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.wg.Add(1)
	h.mu.Unlock()
	defer h.wg.Done()
	before := h.cfg.Clock.Now().Add(-h.cfg.KeepGames)
	n, err := h.cfg.Store.Prune(context.Background(), before)
	switch {
	case err != nil:
		h.cfg.Log.Warn("prune finished games", zap.Int("deleted", n), zap.Error(err))
	case n > 0:
		h.cfg.Log.Info("finished games pruned", zap.Int("deleted", n), zap.Time("ended_before", before))
	}
	h.mu.Lock()
	if !h.closed {
		h.prune = h.cfg.Clock.AfterFunc(h.pruneEvery(), h.pruneStore)
	}
	h.mu.Unlock()
}
