// Package jetstream keeps the results feed (package feed) in a NATS
// JetStream stream that every node of a cluster shares, so that the room
// service reads one feed, from any node, whichever node ran a game, and
// the feed outlives every node.
//
// Each event is a message on the subject FEED.<kind>.<table id> of the
// stream, published only if that subject has no message yet (JetStream's
// expected last sequence per subject, 0): so a step told twice, by one
// node after a restart or by two nodes of a table that moved, is kept
// once, for good, not only inside a deduplication window. A cursor is the
// message's sequence in the stream: it only grows, and it is the same on
// every node. Webhook cursors are kept in a key-value bucket.
package jetstream

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"google.golang.org/protobuf/proto"

	pb "github.com/mahjong-authority/authority/gen/mahjong/authority/v1"
)

// The stream, its subjects and the bucket of webhook cursors.
const (
	Stream      = "AUTHORITY_FEED"
	subjectRoot = "authority.feed"
	HooksBucket = "feed-webhooks"
)

// wrongLastSequence is JetStream's error code for a publish whose
// expected last sequence per subject did not hold.
const wrongLastSequence = jetstream.ErrorCode(10071)

// Config configures a Log.
type Config struct {
	// Replicas is how many JetStream servers keep the stream (default 1).
	Replicas int
	// Timeout bounds each call to JetStream (default 10 s).
	Timeout time.Duration
	// Poll is how often the watchers are woken in case a notice of
	// another node's event was lost (default 2 s).
	Poll time.Duration
}

// Log is a feed.Log in JetStream.
type Log struct {
	cfg    Config
	js     jetstream.JetStream
	stream jetstream.Stream
	hooks  jetstream.KeyValue

	sub  *nats.Subscription
	stop chan struct{}
	wg   sync.WaitGroup

	mu     sync.Mutex
	notify func()
}

// Open creates the stream and the bucket if need be and returns the log.
func Open(ctx context.Context, js jetstream.JetStream, cfg Config) (*Log, error) {
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Poll <= 0 {
		cfg.Poll = 2 * time.Second
	}
	st, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name:        Stream,
		Description: "the results feed: one message a table and kind, the cursor its sequence",
		Subjects:    []string{subjectRoot + ".>"},
		Storage:     jetstream.FileStorage,
		Replicas:    cfg.Replicas,
		Retention:   jetstream.LimitsPolicy,
		// Kept for good, as the single server's feed is.
		MaxMsgsPerSubject:    1,
		Discard:              jetstream.DiscardNew,
		DiscardNewPerSubject: true,
	})
	if err != nil {
		return nil, fmt.Errorf("feed stream: %w", err)
	}
	hooks, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{
		Bucket: HooksBucket, Description: "webhook URL hash -> the feed cursor delivered to it",
		History: 1, Storage: jetstream.FileStorage, Replicas: cfg.Replicas,
	})
	if err != nil {
		return nil, fmt.Errorf("feed webhooks bucket: %w", err)
	}
	l := &Log{cfg: cfg, js: js, stream: st, hooks: hooks, stop: make(chan struct{})}
	// Another node's event wakes this node's watchers: a plain
	// subscription to the stream's subjects hears every publish.
	if l.sub, err = js.Conn().Subscribe(subjectRoot+".>", func(*nats.Msg) { l.changed() }); err != nil {
		return nil, fmt.Errorf("feed notices: %w", err)
	}
	l.wg.Add(1)
	go l.poll()
	return l, nil
}

// Notify sets what is called when an event may have been added by any
// node: feed.Feed's Changed.
func (l *Log) Notify(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.notify = f
}

func (l *Log) changed() {
	l.mu.Lock()
	f := l.notify
	l.mu.Unlock()
	if f != nil {
		f()
	}
}

func (l *Log) poll() {
	defer l.wg.Done()
	t := time.NewTicker(l.cfg.Poll)
	defer t.Stop()
	for {
		select {
		case <-l.stop:
			return
		case <-t.C:
			l.changed()
		}
	}
}

// subject is an event's subject: one per table and kind.
func subject(e *pb.TableEvent) (string, error) {
	id := e.GetTableId()
	if id == "" {
		return "", errors.New("feed event without a table id")
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "", fmt.Errorf("feed event: table id %q is not a subject token", id)
		}
	}
	return subjectRoot + "." + strconv.Itoa(int(e.GetKind())) + "." + id, nil
}

func (l *Log) ctx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), l.cfg.Timeout)
}

// Append publishes e on its subject unless the subject has a message:
// then e gets that message's cursor. It returns once the stream's
// replicas have it.
func (l *Log) Append(e *pb.TableEvent) (bool, error) {
	subj, err := subject(e)
	if err != nil {
		return false, err
	}
	e.Cursor = 0
	raw, err := proto.Marshal(e)
	if err != nil {
		return false, err
	}
	ctx, cancel := l.ctx()
	defer cancel()
	ack, err := l.js.Publish(ctx, subj, raw, jetstream.WithExpectLastSequencePerSubject(0))
	if err == nil {
		e.Cursor = ack.Sequence
		return true, nil
	}
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode != wrongLastSequence {
		return false, fmt.Errorf("feed append: %w", err)
	}
	m, err := l.stream.GetLastMsgForSubject(ctx, subj)
	if err != nil {
		return false, fmt.Errorf("feed append: the event kept before: %w", err)
	}
	e.Cursor = m.Sequence
	return false, nil
}

// Last is the stream's last sequence.
func (l *Log) Last() (uint64, error) {
	ctx, cancel := l.ctx()
	defer cancel()
	info, err := l.stream.Info(ctx)
	if err != nil {
		return 0, fmt.Errorf("feed: %w", err)
	}
	return info.State.LastSeq, nil
}

// Read returns up to max events after cursor after.
func (l *Log) Read(after uint64, max int) ([]*pb.TableEvent, error) {
	ctx, cancel := l.ctx()
	defer cancel()
	var out []*pb.TableEvent
	for seq := after + 1; len(out) < max; {
		// The next message at or after seq: sequences a failed publish
		// used leave no gap in what a reader sees.
		m, err := l.stream.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(subjectRoot+".>"))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("feed read after %d: %w", seq-1, err)
		}
		e := &pb.TableEvent{}
		if err := proto.Unmarshal(m.Data, e); err != nil {
			return nil, fmt.Errorf("feed event %d: %w", m.Sequence, err)
		}
		e.Cursor = m.Sequence
		out = append(out, e)
		seq = m.Sequence + 1
	}
	return out, nil
}

// hookKey is a webhook URL's key in the bucket (a URL is not a valid key).
func hookKey(url string) string {
	h := sha256.Sum256([]byte(url))
	return hex.EncodeToString(h[:16])
}

// Delivered is the cursor delivered to the webhook at url (0: none).
func (l *Log) Delivered(url string) (uint64, error) {
	ctx, cancel := l.ctx()
	defer cancel()
	e, err := l.hooks.Get(ctx, hookKey(url))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("feed webhook cursor: %w", err)
	}
	if len(e.Value()) != 8 {
		return 0, fmt.Errorf("feed webhook cursor: %d bytes", len(e.Value()))
	}
	return binary.BigEndian.Uint64(e.Value()), nil
}

// SetDelivered records the cursor delivered to url.
func (l *Log) SetDelivered(url string, c uint64) error {
	ctx, cancel := l.ctx()
	defer cancel()
	var v [8]byte
	binary.BigEndian.PutUint64(v[:], c)
	if _, err := l.hooks.Put(ctx, hookKey(url), v[:]); err != nil {
		return fmt.Errorf("feed webhook cursor: %w", err)
	}
	return nil
}

// Close stops the notices; the stream stays.
func (l *Log) Close() error {
	close(l.stop)
	l.wg.Wait()
	return l.sub.Unsubscribe()
}
