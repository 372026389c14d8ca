// Package jetstream is the authority's replicated store: a host.Store
// over NATS JetStream, for cluster mode, where several authority
// processes share the tables and any of them may take a table over when
// its owner dies. Every write is acknowledged only once JetStream has
// stored it on a majority of the stream's replicas (R3 by default), and a
// node that lost a table cannot append to it any more (Claim, fencing).
//
// Layout, per rule set R (docs/cluster.md says why):
//
//   - stream authority-R-log, subjects authority.R.log.<table>: the
//     tables' logs. One message per Append holds the whole batch (all or
//     nothing), encoded with package store's entry codec; its header
//     Authority-Entries is the length of the log after it. A message with
//     the header Authority-Fence is a claim's fence marker, skipped on
//     reads.
//   - stream authority-R-live, subjects authority.R.live.<table>: one
//     message (the record) per table not finished, deleted when the game
//     is over: Load reads this stream and nothing of the finished tables;
//     its sequence is the order of creation.
//   - stream authority-R-tables, at most one message per subject:
//     authority.R.table.<table> (the record), .done.<table> (the time the
//     game ended), .snap.<table> (the latest snapshot's State) and
//     .events.<table>.<entries> (the Events of every snapshot).
package jetstream

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// The headers of the log's messages.
const (
	// hdrEntries is the length of the table's log after the message.
	hdrEntries = "Authority-Entries"
	// hdrFence marks a claim's fence marker; its value is the node that
	// claimed the table.
	hdrFence = "Authority-Fence"
)

// Versions of the stored layouts; a change takes the next number.
const (
	batchVersion    = 1
	snapshotVersion = 1
)

// validName is what a rule set's name and a table id may be: one token of
// a NATS subject, and part of a stream's name.
var validName = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

// Store is a host.Store[A] over JetStream. It is safe for concurrent use;
// appends to one table are serialised, appends to different tables run
// in parallel.
type Store[A any] struct {
	js    jetstream.JetStream
	codec store.Codec[A]
	rs    string // the rule set
	node  string // this instance's id, in message ids and fence markers
	inst  string // random, made at Open: in message ids, so that none repeats an earlier instance's
	opts  options

	log, live, meta jetstream.Stream

	// publish sends a message; a test replaces it to lose acks.
	publish func(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error)

	// calls numbers the writes, for their message ids: a new write is
	// not a retry of an old one, even of a table deleted and created
	// again under its id (whose log starts again from nothing).
	calls atomic.Uint64

	mu     sync.Mutex
	tables map[string]*position
}

// position is where a table's log stands as far as this instance knows:
// what its next append expects to follow. An instance knows the position
// of the tables it created, loaded (Load) or claimed; only those it may
// append to.
type position struct {
	mu    sync.Mutex // held for the whole of an append or a claim
	known bool       // last and count are set
	last  uint64     // stream sequence of the table's last log message seen
	count uint64     // entries in the log up to last
}

// Option configures Open.
type Option func(*options)

type options struct {
	replicas int
	timeout  time.Duration
	attempt  time.Duration
	node     string
	obs      store.Observer
}

// WithReplicas sets the replica count of the streams Open creates
// (default 3; 1 for a single JetStream server).
func WithReplicas(n int) Option { return func(o *options) { o.replicas = n } }

// WithTimeout bounds how long one call waits for JetStream when its
// context has no earlier deadline (default 15 s): an append retries
// through a leader election until then, and a stream whose leader died
// elects another within JetStream's Raft election timeout (4 to 9 s).
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = d } }

// WithNodeID names this instance in its fence markers and message ids
// (default random). Two instances must never share one.
func WithNodeID(id string) Option { return func(o *options) { o.node = id } }

// WithObserver has the store tell o how long appends take (Appended).
func WithObserver(obs store.Observer) Option { return func(o *options) { o.obs = obs } }

type nopObserver struct{}

func (nopObserver) Appended(time.Duration)       {}
func (nopObserver) Committed(time.Duration, int) {}

// Open returns the store of one rule set, creating its streams if need
// be (or updating their replica count).
func Open[A any](ctx context.Context, js jetstream.JetStream, ruleSet string, codec store.Codec[A], opts ...Option) (*Store[A], error) {
	op := options{replicas: 3, timeout: 15 * time.Second, attempt: 2 * time.Second, obs: nopObserver{}}
	for _, o := range opts {
		o(&op)
	}
	if !validName.MatchString(ruleSet) {
		return nil, fmt.Errorf("jetstream store: rule set %q: letters, digits, '-' and '_' only", ruleSet)
	}
	if op.node == "" {
		op.node = rand.Text()[:10]
	}
	if !validName.MatchString(op.node) {
		return nil, fmt.Errorf("jetstream store: node id %q: letters, digits, '-' and '_' only", op.node)
	}
	s := &Store[A]{js: js, codec: codec, rs: ruleSet, node: op.node, inst: rand.Text()[:8], opts: op, tables: map[string]*position{}}
	s.publish = js.PublishMsg
	s.calls.Store(uint64(time.Now().UnixNano()))
	ctx, cancel := s.bound(ctx)
	defer cancel()
	base := jetstream.StreamConfig{
		Storage:    jetstream.FileStorage,
		Replicas:   op.replicas,
		Retention:  jetstream.LimitsPolicy,
		Discard:    jetstream.DiscardOld,
		Duplicates: 2 * time.Minute,
		// Reads go to the stream's leader, which has every acknowledged
		// write; a follower might not have the latest yet.
		AllowDirect: false,
	}
	for _, st := range []struct {
		to       *jetstream.Stream
		name     string
		subjects []string
		perSubj  int64
	}{
		{&s.log, "log", []string{s.subject("log", "*")}, -1},
		{&s.live, "live", []string{s.subject("live", "*")}, 1},
		{&s.meta, "tables", []string{s.subject("table", "*"), s.subject("done", "*"), s.subject("snap", "*"), s.subject("events", "*", "*")}, 1},
	} {
		cfg := base
		cfg.Name = "authority-" + ruleSet + "-" + st.name
		cfg.Subjects = st.subjects
		cfg.MaxMsgsPerSubject = st.perSubj
		str, err := js.CreateOrUpdateStream(ctx, cfg)
		if err != nil {
			return nil, fmt.Errorf("jetstream store: stream %s: %w", cfg.Name, err)
		}
		*st.to = str
	}
	return s, nil
}

// subject is authority.<rule set>.<kind>.<tokens...>.
func (s *Store[A]) subject(kind string, tokens ...string) string {
	b := make([]byte, 0, 64)
	b = append(b, "authority."...)
	b = append(b, s.rs...)
	b = append(b, '.')
	b = append(b, kind...)
	for _, t := range tokens {
		b = append(b, '.')
		b = append(b, t...)
	}
	return string(b)
}

// bound gives ctx the store's timeout unless it ends sooner.
func (s *Store[A]) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	if d, ok := ctx.Deadline(); ok && time.Until(d) <= s.opts.timeout {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, s.opts.timeout)
}

// pos returns the position of a table, made if need be.
func (s *Store[A]) pos(table string) *position {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.tables[table]
	if p == nil {
		p = &position{}
		s.tables[table] = p
	}
	return p
}

// forgetUnknown drops the position p of a table the store does not hold
// (the caller holds p.mu), unless it has been replaced.
func (s *Store[A]) forgetUnknown(table string, p *position) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables[table] == p && !p.known {
		delete(s.tables, table)
	}
}

func (s *Store[A]) forget(table string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.tables, table)
}

func checkID(table string) error {
	if !validName.MatchString(table) {
		return fmt.Errorf("jetstream store: table id %q: letters, digits, '-' and '_' only", table)
	}
	return nil
}

// apiCode returns the JetStream error code of err, 0 if it is no answer
// of JetStream's (a timeout, a lost connection).
func apiCode(err error) jetstream.ErrorCode {
	var api *jetstream.APIError
	if errors.As(err, &api) {
		return api.ErrorCode
	}
	return 0
}

// Error codes this store acts on.
const (
	codeWrongLast         jetstream.ErrorCode = 10071 // the subject's last sequence is not the expected one
	codeWrongLastConstant jetstream.ErrorCode = 10164 // the same, or a write to the subject is in process
	codeDupInProcess      jetstream.ErrorCode = 10158 // a message with the same id is in process
)

func wrongLast(err error) bool {
	c := apiCode(err)
	return c == codeWrongLast || c == codeWrongLastConstant
}

// send publishes m until JetStream answers: a timeout, a lost connection
// or a leader election is retried with the same message (its
// Nats-Msg-Id makes a write that did land count once) until ctx ends.
// JetStream's answers, errors included, are returned, except that a
// message with the same id still in process is waited for.
func (s *Store[A]) send(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
	wait := 20 * time.Millisecond
	for {
		actx, cancel := context.WithTimeout(ctx, s.opts.attempt)
		ack, err := s.publish(actx, m, opts...)
		cancel()
		if err == nil {
			return ack, nil
		}
		if c := apiCode(err); c != 0 && c != codeDupInProcess || errors.Is(err, nats.ErrConnectionClosed) {
			return nil, err
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("%w (last try: %w)", ctx.Err(), err)
		case <-time.After(wait):
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}

// lastMsg returns the last message on subject, nil if there is none.
func lastMsg(ctx context.Context, st jetstream.Stream, subject string) (*jetstream.RawStreamMsg, error) {
	m, err := st.GetLastMsgForSubject(ctx, subject)
	if errors.Is(err, jetstream.ErrMsgNotFound) {
		return nil, nil
	}
	return m, err
}

// entriesOf reads a log message's Authority-Entries header.
func entriesOf(h nats.Header) (uint64, error) {
	n, err := strconv.ParseUint(h.Get(hdrEntries), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: log message without a length: %w", store.ErrCorrupt, err)
	}
	return n, nil
}

// Create records a new table; it fails if the table exists.
func (s *Store[A]) Create(ctx context.Context, rec host.TableRecord) error {
	if err := checkID(rec.ID); err != nil {
		return err
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("jetstream store: record of %s: %w", rec.ID, err)
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	// The record first, then the live index: a table whose Create did
	// not return is at worst a record that nothing lists.
	for _, kind := range []string{"table", "live"} {
		m := nats.NewMsg(s.subject(kind, rec.ID))
		m.Data = raw
		m.Header.Set(jetstream.MsgIDHeader, s.node+"."+s.inst+"."+kind+"."+rec.ID+"."+strconv.FormatUint(s.calls.Add(1), 10))
		if _, err := s.send(ctx, m, jetstream.WithExpectLastSequencePerSubject(0)); err != nil {
			if wrongLast(err) {
				return fmt.Errorf("jetstream store: table %s exists", rec.ID)
			}
			return fmt.Errorf("jetstream store: create %s: %w", rec.ID, err)
		}
	}
	p := s.pos(rec.ID)
	p.mu.Lock()
	p.known, p.last, p.count = true, 0, 0
	p.mu.Unlock()
	return nil
}

// Append adds entries to a table's log in one message, all or none, and
// returns once JetStream has acknowledged it (stored on a majority of the
// replicas). The message expects the table's log to end where this
// instance last wrote or read it: if another node has claimed the table
// since, nothing is stored and the error matches host.ErrFenced. An
// instance appends only to the tables it created, loaded or claimed.
func (s *Store[A]) Append(ctx context.Context, table string, entries ...host.Entry[A]) error {
	body, err := s.encodeBatch(entries)
	if err != nil {
		return fmt.Errorf("jetstream store: table %s: %w", table, err)
	}
	start := time.Now()
	defer func() { s.opts.obs.Appended(time.Since(start)) }()
	ctx, cancel := s.bound(ctx)
	defer cancel()
	p := s.pos(table)
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.known {
		if err := s.exists(ctx, table); err != nil {
			s.forgetUnknown(table, p)
			return err
		}
		return fmt.Errorf("jetstream store: table %s: not claimed by this node: %w", table, host.ErrFenced)
	}
	id := s.msgID(table, p)
	m := nats.NewMsg(s.subject("log", table))
	m.Data = body
	m.Header.Set(hdrEntries, strconv.FormatUint(p.count+uint64(len(entries)), 10))
	m.Header.Set(jetstream.MsgIDHeader, id)
	for {
		ack, err := s.send(ctx, m, jetstream.WithExpectLastSequencePerSubject(p.last))
		if err == nil {
			p.last, p.count = ack.Sequence, p.count+uint64(len(entries))
			return nil
		}
		if !wrongLast(err) {
			return fmt.Errorf("jetstream store: append to %s: %w", table, err)
		}
		// The log does not end where this instance left it, or another
		// write to it is in process: look.
		last, lerr := lastMsg(ctx, s.log, s.subject("log", table))
		switch {
		case lerr != nil:
			return fmt.Errorf("jetstream store: append to %s: %w (then: %w)", table, err, lerr)
		case last != nil && last.Header.Get(jetstream.MsgIDHeader) == id:
			// Our own message, stored by an earlier try.
			p.last, p.count = last.Sequence, p.count+uint64(len(entries))
			return nil
		case last == nil && p.last == 0 || last != nil && last.Sequence == p.last:
			// Nothing new: a write in process, since gone. Again.
			select {
			case <-ctx.Done():
				return fmt.Errorf("jetstream store: append to %s: %w", table, ctx.Err())
			case <-time.After(50 * time.Millisecond):
			}
			continue
		}
		// Another node's fence or entries, or an append of this node that
		// landed after it was reported as failed: the log has moved on
		// without this instance, which must not write to it again.
		p.known = false
		by := "another node"
		if last != nil {
			if f := last.Header.Get(hdrFence); f != "" {
				by = "node " + f
			}
		}
		return fmt.Errorf("jetstream store: append to %s: the log moved on (%s): %w", table, by, host.ErrFenced)
	}
}

// msgID is the Nats-Msg-Id of an append: this node and instance, the
// table, where the log stood and which write of this instance's it is -
// unique, so that a retry is the only thing JetStream drops as a
// duplicate. (It once numbered the writes per table, from one again for a
// table deleted and created again under its id: JetStream dropped the
// new log's first appends within its duplicate window as repeats of the
// old log's, and acknowledged them.)
func (s *Store[A]) msgID(table string, p *position) string {
	return s.node + "." + s.inst + "." + table + "." + strconv.FormatUint(p.count, 10) + "." + strconv.FormatUint(s.calls.Add(1), 10)
}

// exists returns nil if the store holds the table, an error matching
// host.ErrNoTable if it does not.
func (s *Store[A]) exists(ctx context.Context, table string) error {
	if err := checkID(table); err != nil {
		return fmt.Errorf("%w: %w", err, host.ErrNoTable)
	}
	m, err := lastMsg(ctx, s.meta, s.subject("table", table))
	if err != nil {
		return fmt.Errorf("jetstream store: table %s: %w", table, err)
	}
	if m == nil {
		return fmt.Errorf("jetstream store: table %s: %w", table, host.ErrNoTable)
	}
	return nil
}

// The stored snapshot: version, the entries it covers, the stream
// sequence of the log message after which the log holds exactly that many
// entries (0: unknown, read the log from its start), then State.
func encodeSnapshot(entries, seq uint64, state []byte) []byte {
	b := make([]byte, 0, 17+len(state))
	b = append(b, snapshotVersion)
	b = binary.BigEndian.AppendUint64(b, entries)
	b = binary.BigEndian.AppendUint64(b, seq)
	return append(b, state...)
}

func decodeSnapshot(b []byte) (entries, seq uint64, state []byte, ok bool) {
	if len(b) < 17 || b[0] != snapshotVersion {
		return 0, 0, nil, false
	}
	return binary.BigEndian.Uint64(b[1:9]), binary.BigEndian.Uint64(b[9:17]), bytes.Clone(b[17:]), true
}

// SaveSnapshot stores a table's snapshot, replacing its previous one; its
// Events are kept with those of the earlier snapshots. The Events go
// first: the snapshot is seen only once both are stored.
func (s *Store[A]) SaveSnapshot(ctx context.Context, table string, snap host.TableSnapshot) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.exists(ctx, table); err != nil {
		return err
	}
	p := s.pos(table)
	p.mu.Lock()
	count, last, known := p.count, p.last, p.known
	p.mu.Unlock()
	if !known {
		m, err := lastMsg(ctx, s.log, s.subject("log", table))
		if err != nil {
			return fmt.Errorf("jetstream store: snapshot of %s: %w", table, err)
		}
		if m != nil {
			if count, err = entriesOf(m.Header); err != nil {
				return fmt.Errorf("jetstream store: snapshot of %s: %w", table, err)
			}
			last = m.Sequence
		}
	}
	if snap.Entries > count {
		return fmt.Errorf("jetstream store: table %s: snapshot of %d entries, log of %d: %w", table, snap.Entries, count, host.ErrNoSnapshot)
	}
	seq := uint64(0)
	if snap.Entries == count {
		seq = last
	}
	ev := nats.NewMsg(s.subject("events", table, strconv.FormatUint(snap.Entries, 10)))
	ev.Data = snap.Events
	if _, err := s.send(ctx, ev); err != nil {
		return fmt.Errorf("jetstream store: events of %s's snapshot: %w", table, err)
	}
	sm := nats.NewMsg(s.subject("snap", table))
	sm.Data = encodeSnapshot(snap.Entries, seq, snap.State)
	if _, err := s.send(ctx, sm); err != nil {
		return fmt.Errorf("jetstream store: snapshot of %s: %w", table, err)
	}
	return nil
}

// Finish marks a table's game over: its finished mark is stored (the
// first time only), then its message in the live index deleted.
func (s *Store[A]) Finish(ctx context.Context, table string, at time.Time) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.exists(ctx, table); err != nil {
		return err
	}
	m := nats.NewMsg(s.subject("done", table))
	m.Data = binary.BigEndian.AppendUint64(nil, uint64(at.UnixNano()))
	m.Header.Set(jetstream.MsgIDHeader, s.node+".done."+table+"."+strconv.FormatUint(s.calls.Add(1), 10))
	if _, err := s.send(ctx, m, jetstream.WithExpectLastSequencePerSubject(0)); err != nil && !wrongLast(err) {
		return fmt.Errorf("jetstream store: finish %s: %w", table, err)
	}
	return s.unlist(ctx, table)
}

// unlist deletes a table's message in the live index, if any.
func (s *Store[A]) unlist(ctx context.Context, table string) error {
	m, err := lastMsg(ctx, s.live, s.subject("live", table))
	if err == nil && m != nil {
		err = s.live.DeleteMsg(ctx, m.Sequence)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			err = nil
		}
	}
	if err != nil {
		return fmt.Errorf("jetstream store: unlist %s: %w", table, err)
	}
	return nil
}

// Delete forgets a table: first its place in the live index, then its
// log, snapshots and events, its record and last its finished mark, so
// that a Delete cut short leaves a table that Load does not see and that
// Prune (or Delete again) finishes deleting.
func (s *Store[A]) Delete(ctx context.Context, table string) error {
	if checkID(table) != nil {
		return nil // never stored
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.unlist(ctx, table); err != nil {
		return err
	}
	purges := []struct {
		st      jetstream.Stream
		subject string
	}{
		{s.log, s.subject("log", table)},
		{s.meta, s.subject("snap", table)},
		{s.meta, s.subject("events", table, "*")},
		{s.meta, s.subject("table", table)},
		{s.meta, s.subject("done", table)},
	}
	for _, pg := range purges {
		if err := pg.st.Purge(ctx, jetstream.WithPurgeSubject(pg.subject)); err != nil {
			return fmt.Errorf("jetstream store: delete %s: %s: %w", table, pg.subject, err)
		}
	}
	s.forget(table)
	return nil
}

// Prune deletes every table finished before the given time. It reads the
// finished marks (a few bytes a table), not the tables.
func (s *Store[A]) Prune(ctx context.Context, before time.Time) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	limit := before.UnixNano()
	prefix := s.subject("done", "")
	var old []string
	err := s.each(ctx, s.meta, s.subject("done", "*"), func(m *jetstream.RawStreamMsg) error {
		if d := m.Data; len(d) == 8 && int64(binary.BigEndian.Uint64(d)) < limit {
			old = append(old, m.Subject[len(prefix):])
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("jetstream store: prune: %w", err)
	}
	for i, id := range old {
		if err := s.Delete(ctx, id); err != nil {
			return i, fmt.Errorf("jetstream store: prune: %w", err)
		}
	}
	return len(old), nil
}

var _ host.Store[int] = (*Store[int])(nil)
