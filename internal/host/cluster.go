package host

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.uber.org/zap"
)

// A host in a cluster (package cluster) shares its store with the hosts
// of other nodes: every table has one owning node at a time, the one that
// holds its lease (Config.Owner). The host takes a table's lease before it
// creates it, adopts a table whose owner died (Adopt: read from the store
// and resumed as a restart resumes it), and gives a table up without
// ending its game when its lease is lost or the store fences it (Release,
// ErrFenced): its streams end with ErrReleased, which tells clients to
// reconnect; the new owner resumes them from after_seq.

// Owner is the cluster's side of a host whose store other nodes share.
type Owner interface {
	// Acquire takes table id's lease for this node; false, without an
	// error, when another node holds it.
	Acquire(ctx context.Context, id string) (bool, error)
	// Drop gives table id's lease up, if this node holds it: the table's
	// game is over, it was closed, or the host released it.
	Drop(id string)
}

// Claimer is a store that fences a table when a node takes it over: Claim
// reads the table as LoadTable does, and from then on only this store
// instance may append to its log; an append of another instance (a node
// that lost the table) fails with an error matching ErrFenced.
type Claimer[A any] interface {
	Claim(ctx context.Context, table string) (TableRecord, *TableSnapshot, []Entry[A], error)
}

// ErrReleased is what every ReleasedError matches.
var ErrReleased = errors.New("the table moved to another node: reconnect")

// ReleasedError is the error of a table this host gave up without ending
// its game: another node owns it now. Clients call again, on any node.
type ReleasedError struct {
	ID  string
	Err error // why: the lease was lost, or the store fenced an append
}

func (e *ReleasedError) Error() string {
	return fmt.Sprintf("table %s moved to another node: reconnect", e.ID)
}

// Is makes errors.Is(err, ErrReleased) and errors.Is(err, ErrUnavailable)
// hold: nothing changed, and the same request may be sent again (where
// the table is now).
func (e *ReleasedError) Is(target error) bool {
	return target == ErrReleased || target == ErrUnavailable
}

func (e *ReleasedError) Unwrap() error { return e.Err }

// errOver is Adopt's refusal of a table whose game is over in the store.
var errOver = fmt.Errorf("adopt: %w", ErrGameOver)

// Adopt takes table id over from the store and runs it: read (and fenced,
// with a store that is a Claimer), then resumed exactly as Recover resumes
// a table after a restart. The caller holds the table's lease. A table the
// host holds already is no error; one the store does not hold matches
// ErrNotFound; one whose game is over is not held (the host reads it back
// on demand) and matches ErrGameOver; one that does not replay is set
// aside and returned as a *DamagedError.
func (h *Host[A, V, B]) Adopt(ctx context.Context, id string) error {
	if h.cfg.GameFor == nil {
		return fmt.Errorf("adopt: no GameFor: %w", ErrBadRequest)
	}
	return h.adopt(ctx, id, h.cfg.GameFor)
}

func (h *Host[A, V, B]) adopt(ctx context.Context, id string, gameFor GameFor[A, V, B]) error {
	h.mu.RLock()
	closed, held := h.closed, h.tables[id]
	h.mu.RUnlock()
	switch {
	case closed:
		return ErrClosed
	case held != nil && held.info().State == Finished:
		return errOver // in memory for its streams; it needs no owner
	case held != nil:
		return nil
	}
	load := h.cfg.Store.LoadTable
	if c, ok := h.cfg.Store.(Claimer[A]); ok {
		load = c.Claim
	}
	rec, snap, entries, err := load(ctx, id)
	switch {
	case errors.Is(err, ErrNoTable):
		return fmt.Errorf("adopt table %q: %w", id, ErrNotFound)
	case errors.Is(err, ErrCorruptLog):
		d := &DamagedError{ID: id, Err: err}
		h.setAside([]*DamagedError{d})
		return d
	case err != nil:
		return fmt.Errorf("adopt table %q: %w: %v", id, ErrUnavailable, err)
	}
	newGame, err := gameFor(rec)
	var t *table[A, V, B]
	if err == nil {
		t, err = h.recoverTable(ctx, rec, newGame, snap, entries)
	}
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		d := &DamagedError{ID: id, Err: err}
		h.setAside([]*DamagedError{d})
		return d
	}
	if t.state == Playing && (t.game.Over() || t.abandon) {
		// Its owner told its end; Load leaves it out once it is marked.
		t.cancel()
		return errOver
	}
	var st recoveryStats
	if err := h.resume(t, &st); err != nil {
		t.cancel()
		return err
	}
	h.cfg.Log.Info("table adopted", zap.String("table", id), zap.Stringer("state", t.state),
		zap.Int("entries_replayed", st.replayed), zap.Bool("from_snapshot", st.fromSnap > 0))
	return nil
}

// recoverOwned is Recover in a cluster: it resumes only the stored tables
// whose lease this node wins, each read again (and fenced) by Adopt.
func (h *Host[A, V, B]) recoverOwned(ctx context.Context, gameFor GameFor[A, V, B]) (int, error) {
	start := time.Now()
	var ids []string
	err := h.cfg.Store.Load(ctx, func(rec TableRecord, _ *TableSnapshot, _ []Entry[A]) error {
		ids = append(ids, rec.ID)
		return nil
	})
	var damaged []*DamagedError
	err = splitDamaged(err, &damaged)
	h.setAside(damaged)
	if err != nil {
		return 0, fmt.Errorf("recover: %w", err)
	}
	n, others := 0, 0
	for _, id := range ids {
		won, err := h.cfg.Owner.Acquire(ctx, id)
		if err != nil {
			return n, fmt.Errorf("recover: lease of table %s: %w", id, err)
		}
		if !won {
			others++
			continue
		}
		switch err := h.adopt(ctx, id, gameFor); {
		case err == nil:
			n++
		case errors.Is(err, ErrGameOver), errors.Is(err, ErrNotFound), errors.Is(err, ErrCorruptLog):
			h.cfg.Owner.Drop(id)
		default:
			h.cfg.Owner.Drop(id)
			return n, fmt.Errorf("recover: %w", err)
		}
	}
	h.obs.Recovered(n, time.Since(start))
	h.cfg.Log.Info("tables recovered", zap.Int("tables", n), zap.Int("owned_elsewhere", others), zap.Int("damaged", len(damaged)))
	return n, nil
}

// Release stops table id without ending its game, because another node
// owns it now (why: the lease was lost): it leaves memory, its timers
// stop, its waiting requests and open streams end with a *ReleasedError.
// Nothing is written. It reports whether the host held the table.
func (h *Host[A, V, B]) Release(id string, why error) bool {
	h.mu.RLock()
	t := h.tables[id]
	h.mu.RUnlock()
	if t == nil {
		return false
	}
	t.post(func() { t.giveUp(why) })
	return true
}

// giveUp is Release as the table's runner; the table then stops.
func (t *table[A, V, B]) giveUp(why error) {
	if t.exit {
		return
	}
	h := t.h
	h.mu.Lock()
	if h.tables[t.rec.ID] == t {
		delete(h.tables, t.rec.ID)
		h.unplace(t)
		if t.state != Finished {
			h.unfinished.n.Add(-1)
		}
	}
	h.mu.Unlock()
	t.exit, t.stopErr = true, &ReleasedError{ID: t.rec.ID, Err: why}
	if o := h.cfg.Owner; o != nil {
		o.Drop(t.rec.ID)
	}
	t.log.Warn("table released: another node owns it now", zap.Error(why))
}

// dropLease gives the table's lease up once the table needs no owner: its
// end is in the store, or it was deleted.
func (t *table[A, V, B]) dropLease() {
	if o := t.h.cfg.Owner; o != nil && !t.ro {
		o.Drop(t.rec.ID)
	}
}
