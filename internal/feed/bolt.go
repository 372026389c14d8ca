package feed

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

var (
	bucketEvents = []byte("events")   // cursor (big endian) -> pb.TableEvent
	bucketSeen   = []byte("seen")     // Key -> cursor
	bucketHooks  = []byte("webhooks") // URL -> cursor delivered
)

// boltLog keeps the events in a bbolt file. The Feed appends one at a
// time, so next needs no lock of its own beyond the transaction's.
type boltLog struct {
	db   *bolt.DB
	next uint64 // the cursor of the next event
}

func openBolt(path string) (*boltLog, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	if err != nil {
		return nil, fmt.Errorf("open feed: %w", err)
	}
	l := &boltLog{db: db, next: 1}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketEvents)
		if err != nil {
			return err
		}
		if _, err := tx.CreateBucketIfNotExists(bucketSeen); err != nil {
			return err
		}
		if k, _ := b.Cursor().Last(); k != nil {
			l.next = binary.BigEndian.Uint64(k) + 1
		}
		return nil
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open feed: %w", err)
	}
	return l, nil
}

func (l *boltLog) Append(e *pb.TableEvent) (bool, error) {
	added := false
	err := l.db.Update(func(tx *bolt.Tx) error {
		seen := tx.Bucket(bucketSeen)
		if v := seen.Get([]byte(Key(e))); v != nil {
			e.Cursor = binary.BigEndian.Uint64(v)
			return nil
		}
		e.Cursor = l.next
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
		return seen.Put([]byte(Key(e)), k[:])
	})
	if err != nil || !added {
		return false, err
	}
	l.next++
	return true, nil
}

func (l *boltLog) Last() (uint64, error) {
	var last uint64
	err := l.db.View(func(tx *bolt.Tx) error {
		if k, _ := tx.Bucket(bucketEvents).Cursor().Last(); k != nil {
			last = binary.BigEndian.Uint64(k)
		}
		return nil
	})
	return last, err
}

func (l *boltLog) Read(after uint64, max int) ([]*pb.TableEvent, error) {
	var out []*pb.TableEvent
	err := l.db.View(func(tx *bolt.Tx) error {
		var k [8]byte
		binary.BigEndian.PutUint64(k[:], after+1)
		c := tx.Bucket(bucketEvents).Cursor()
		for key, v := c.Seek(k[:]); key != nil && len(out) < max; key, v = c.Next() {
			e := &pb.TableEvent{}
			if err := proto.Unmarshal(v, e); err != nil {
				return fmt.Errorf("feed event %d: %w", binary.BigEndian.Uint64(key), err)
			}
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

func (l *boltLog) Delivered(url string) (uint64, error) {
	var c uint64
	err := l.db.View(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bucketHooks); b != nil {
			if v := b.Get([]byte(url)); len(v) == 8 {
				c = binary.BigEndian.Uint64(v)
			}
		}
		return nil
	})
	return c, err
}

func (l *boltLog) SetDelivered(url string, c uint64) error {
	return l.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucketIfNotExists(bucketHooks)
		if err != nil {
			return err
		}
		var v [8]byte
		binary.BigEndian.PutUint64(v[:], c)
		return b.Put([]byte(url), v[:])
	})
}

func (l *boltLog) Close() error { return l.db.Close() }
