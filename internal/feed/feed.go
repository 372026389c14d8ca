// Package feed is the results feed of the room service: every table's
// lifecycle (created, started, finished with its scores, closed,
// damaged), one event per step, numbered by a cursor that only grows.
// A reader resumes after the last cursor it handled and gets every event
// after it, in order; a step told twice (a restart replays the end of a
// game whose end the store had not marked, or a table moves to another
// node of a cluster) is kept once, so every finished game is in the feed
// exactly once. Where the events are kept is a Log: in memory (Memory,
// empty again after a restart), in a bbolt file beside the tables' stores
// (Open), or in a JetStream stream that every node of a cluster shares
// (package feed/jetstream).
package feed

import (
	"context"
	"errors"
	"fmt"
	"sync"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// ErrClosed ends the streams of a closed feed.
var ErrClosed = errors.New("feed closed")

// batch is how many events Watch reads at once.
const batch = 256

// Log keeps a feed's events. Its methods may be called at once from many
// goroutines (tables start and end their games together: a durable log
// commits together the appends that come together); a Feed writes
// nothing once it called Close.
type Log interface {
	// Append adds e unless the log has an event of its kind for its
	// table already; it sets e's cursor (the kept one's, for a repeat)
	// and reports whether it was added. It returns once e is kept (on
	// disk, or replicated, for a durable log).
	Append(e *pb.TableEvent) (bool, error)
	// Last is the newest cursor (0: the log is empty).
	Last() (uint64, error)
	// Read returns up to max events after cursor after, in order.
	Read(after uint64, max int) ([]*pb.TableEvent, error)
	// Delivered is the cursor of the last event delivered to a webhook
	// (0: none).
	Delivered(url string) (uint64, error)
	// SetDelivered records it.
	SetDelivered(url string, cursor uint64) error
	Close() error
}

// Feed is the results feed. Its methods may be called at once from many
// goroutines.
type Feed struct {
	log Log
	// open is held shared by every write to the log, exclusively by
	// Close: writes go to the log at once, and none is in flight when it
	// closes.
	open sync.RWMutex

	mu      sync.Mutex
	changed chan struct{}
	closed  bool
}

// New returns the feed of the events kept in l. A log that other
// processes append to as well (a cluster's) calls Changed when they do.
func New(l Log) *Feed {
	return &Feed{log: l, changed: make(chan struct{})}
}

// Memory returns a feed in memory.
func Memory() *Feed { return New(&memoryLog{seen: map[string]uint64{}}) }

// Open opens (or creates) a durable feed in the file at path.
func Open(path string) (*Feed, error) {
	l, err := openBolt(path)
	if err != nil {
		return nil, err
	}
	return New(l), nil
}

// Key is what makes an event one of a kind: its kind and its table. A log
// keeps one event a key.
func Key(e *pb.TableEvent) string {
	return string(rune('0'+e.GetKind())) + e.GetTableId()
}

// Append adds an event unless the feed has one of its kind for its table
// already; it sets e's cursor (the kept one's, for a repeat) and reports
// whether it was added. A durable feed has it kept when Append returns.
func (f *Feed) Append(e *pb.TableEvent) (bool, error) {
	f.open.RLock()
	defer f.open.RUnlock()
	if f.isClosed() {
		return false, ErrClosed
	}
	added, err := f.log.Append(e)
	if err != nil {
		return false, fmt.Errorf("results feed: %w", err)
	}
	if added {
		f.Changed()
	}
	return added, nil
}

func (f *Feed) isClosed() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.closed
}

// Changed wakes the watchers: events were added by another process.
func (f *Feed) Changed() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.wake()
	}
}

func (f *Feed) wake() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// Last is the newest cursor (0: the feed is empty).
func (f *Feed) Last() (uint64, error) {
	last, err := f.log.Last()
	if err != nil {
		return 0, fmt.Errorf("results feed: %w", err)
	}
	return last, nil
}

// read returns up to batch events after cursor, and a channel closed when
// more come.
func (f *Feed) read(after uint64) ([]*pb.TableEvent, <-chan struct{}, error) {
	f.mu.Lock()
	closed, ch := f.closed, f.changed
	f.mu.Unlock()
	if closed {
		return nil, nil, ErrClosed
	}
	// The channel is taken before the read: an event added after the
	// read closes it.
	evs, err := f.log.Read(after, batch)
	if err != nil {
		return nil, nil, fmt.Errorf("results feed: %w", err)
	}
	return evs, ch, nil
}

// Watch sends every event after cursor after, in order, then each new one
// as it comes, until ctx ends, send fails or the feed closes.
func (f *Feed) Watch(ctx context.Context, after uint64, send func(*pb.TableEvent) error) error {
	for {
		evs, changed, err := f.read(after)
		if err != nil {
			return err
		}
		for _, e := range evs {
			if err := send(e); err != nil {
				return err
			}
			after = e.GetCursor()
		}
		if len(evs) > 0 {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-changed:
		}
	}
}

// Close ends the streams and closes the log.
func (f *Feed) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	f.wake()
	f.mu.Unlock()
	f.open.Lock()
	defer f.open.Unlock()
	return f.log.Close()
}
