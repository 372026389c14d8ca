// Package feed is the results feed of the room service: every table's
// lifecycle (created, started, finished with its scores, closed,
// damaged), one event per step, numbered by a cursor that only grows.
// A reader resumes after the last cursor it handled and gets every event
// after it, in order; a step told twice (a restart replays the end of a
// game whose end the store had not marked) is kept once, so every
// finished game is in the feed exactly once. With a file the feed is
// durable (bbolt, beside the tables' stores); without one it lives in
// memory and starts again empty after a restart.
package feed

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// ErrClosed ends the streams of a closed feed.
var ErrClosed = errors.New("feed closed")

var (
	bucketEvents = []byte("events") // cursor (big endian) -> pb.TableEvent
	bucketSeen   = []byte("seen")   // kind byte + table id -> cursor
)

// batch is how many events Watch reads at once.
const batch = 256

// Feed is the results feed. Its methods may be called at once from many
// goroutines.
type Feed struct {
	db *bolt.DB // nil: in memory

	mu      sync.Mutex
	events  []*pb.TableEvent // in memory: cursor n is events[n-1]
	seen    map[string]uint64
	next    uint64 // the cursor of the next event
	changed chan struct{}
	closed  bool
	hooks   map[string]uint64 // in memory: webhook URL -> cursor delivered
}

// Memory returns a feed in memory.
func Memory() *Feed {
	return &Feed{seen: map[string]uint64{}, next: 1, changed: make(chan struct{})}
}

// Open opens (or creates) a durable feed in the file at path.
func Open(path string) (*Feed, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("open feed: %w", err)
	}
	f := &Feed{db: db, next: 1, changed: make(chan struct{})}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketEvents)
		if err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketSeen); err != nil {
			return err
		}
		if k, _ := b.Cursor().Last(); k != nil {
			f.next = binary.BigEndian.Uint64(k) + 1
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open feed: %w", err)
	}
	return f, nil
}

func seenKey(e *pb.TableEvent) string {
	return string(rune('0'+e.GetKind())) + e.GetTableId()
}

// Append adds an event unless the feed has one of its kind for its table
// already; it sets e's cursor (the kept one's, for a repeat) and reports
// whether it was added. A durable feed has it on disk when Append returns.
func (f *Feed) Append(e *pb.TableEvent) (bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return false, ErrClosed
	}
	key := seenKey(e)
	if f.db == nil {
		if c, ok := f.seen[key]; ok {
			e.Cursor = c
			return false, nil
		}
		e.Cursor = f.next
		f.events = append(f.events, proto.Clone(e).(*pb.TableEvent))
		f.seen[key] = e.Cursor
	} else {
		added := false
		err := f.db.Update(func(tx *bolt.Tx) error {
			seen := tx.Bucket(bucketSeen)
			if v := seen.Get([]byte(key)); v != nil {
				e.Cursor = binary.BigEndian.Uint64(v)
				return nil
			}
			e.Cursor = f.next
			raw, err := proto.Marshal(e)
			if err != nil {
				return err
			}
			var k [8]byte
			binary.BigEndian.PutUint64(k[:], e.Cursor)
			if err := tx.Bucket(bucketEvents).Put(k[:], raw); err != nil {
				return err
			}
			added = true
			return seen.Put([]byte(key), k[:])
		})
		if err != nil || !added {
			return false, err
		}
	}
	f.next++
	close(f.changed)
	f.changed = make(chan struct{})
	return true, nil
}

// Last is the newest cursor (0: the feed is empty).
func (f *Feed) Last() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.next - 1
}

// read returns up to batch events after cursor, and a channel closed when
// more come.
func (f *Feed) read(after uint64) ([]*pb.TableEvent, <-chan struct{}, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, nil, ErrClosed
	}
	ch := f.changed
	if f.db == nil {
		if after >= uint64(len(f.events)) {
			return nil, ch, nil
		}
		end := min(uint64(len(f.events)), after+batch)
		return f.events[after:end], ch, nil
	}
	var out []*pb.TableEvent
	err := f.db.View(func(tx *bolt.Tx) error {
		var k [8]byte
		binary.BigEndian.PutUint64(k[:], after+1)
		c := tx.Bucket(bucketEvents).Cursor()
		for key, v := c.Seek(k[:]); key != nil && len(out) < batch; key, v = c.Next() {
			e := &pb.TableEvent{}
			if err := proto.Unmarshal(v, e); err != nil {
				return fmt.Errorf("feed event %d: %w", binary.BigEndian.Uint64(key), err)
			}
			out = append(out, e)
		}
		return nil
	})
	return out, ch, err
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

// Close ends the streams and closes the file.
func (f *Feed) Close() error {
	f.mu.Lock()
	if f.closed {
		f.mu.Unlock()
		return nil
	}
	f.closed = true
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
	if f.db != nil {
		return f.db.Close()
	}
	return nil
}
