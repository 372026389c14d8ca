package store

import (
	"context"
	"sync"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// Faulty wraps a store and refuses its writes (Create, Append,
// SaveSnapshot, Finish, Delete, Prune) while a fault is set: a full disk
// or a lost connection, on demand. Reads pass through.
type Faulty[A any] struct {
	host.Store[A]

	mu    sync.Mutex
	fault error
	tries int // writes refused so far
}

// NewFaulty wraps s.
func NewFaulty[A any](s host.Store[A]) *Faulty[A] { return &Faulty[A]{Store: s} }

// SetFault makes every write fail with err until it is called with nil.
func (f *Faulty[A]) SetFault(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fault = err
}

// Refused returns how many writes were refused.
func (f *Faulty[A]) Refused() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tries
}

func (f *Faulty[A]) check() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.fault != nil {
		f.tries++
	}
	return f.fault
}

// Create creates the table unless a fault is set.
func (f *Faulty[A]) Create(ctx context.Context, rec host.TableRecord) error {
	if err := f.check(); err != nil {
		return err
	}
	return f.Store.Create(ctx, rec)
}

// Append appends the entries unless a fault is set.
func (f *Faulty[A]) Append(ctx context.Context, table string, entries ...host.Entry[A]) error {
	if err := f.check(); err != nil {
		return err
	}
	return f.Store.Append(ctx, table, entries...)
}

// SaveSnapshot stores the snapshot unless a fault is set.
func (f *Faulty[A]) SaveSnapshot(ctx context.Context, table string, s host.TableSnapshot) error {
	if err := f.check(); err != nil {
		return err
	}
	return f.Store.SaveSnapshot(ctx, table, s)
}

// Finish marks the table finished unless a fault is set.
func (f *Faulty[A]) Finish(ctx context.Context, table string, at time.Time) error {
	if err := f.check(); err != nil {
		return err
	}
	return f.Store.Finish(ctx, table, at)
}

// Delete deletes the table unless a fault is set.
func (f *Faulty[A]) Delete(ctx context.Context, table string) error {
	if err := f.check(); err != nil {
		return err
	}
	return f.Store.Delete(ctx, table)
}

// Prune prunes unless a fault is set.
func (f *Faulty[A]) Prune(ctx context.Context, before time.Time) (int, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	return f.Store.Prune(ctx, before)
}
