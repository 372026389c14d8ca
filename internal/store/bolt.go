// Package store keeps tables durable: Bolt is the embedded store of the
// authority (one bbolt file under --data), Faulty wraps any store to refuse
// writes on demand (a full disk, in tests). Both implement host.Store.
package store

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
)

// ErrClosed is the error of a store used after Close.
var ErrClosed = errors.New("store: closed")

// Bucket layout: "tables" holds one bucket per table id with the record
// (JSON) under "record", a bucket "log" of entries from 1, each value an
// entry alone or a group of consecutive entries under the big-endian
// 8-byte number of its first (group.go; its Sequence the last of them;
// the newest entries may be only in the write-ahead log beside the file
// and in memory, see wal.go and journal.go), the latest snapshot as a
// blob (putBlob: a bucket of its own) under "snapshot" (a version byte,
// the big-endian 8-byte count of entries it covers, then its State) and
// a bucket "events" of every snapshot's Events, each a blob under the
// same 8-byte count, its key in "order" under "seq"
// and, once its game is over, the
// time it ended (big-endian Unix nanoseconds) under "finished". "order"
// maps a big-endian sequence to table ids, the order of creation; "live"
// holds the same keys for the tables not finished, which is all that
// recovery reads, and "finished" the finished tables by the time they
// ended (8 bytes, then the id), which is what pruning reads.
//
// A file written before snapshots existed has none: its tables are
// rebuilt from their logs, and gain snapshots as they play. One written
// before "live" existed gets it when it is opened, with every table in
// it; the host marks the finished ones as it recovers them. One written
// before "journal" existed gets an empty one; a file whose journal is
// empty reads the same to a store that knows no journal; this store
// keeps it empty (the write-ahead log took its place), so that an older
// build still opens the file (but it ignores a log that a crash left).
// One written before blobs holds its snapshots and events as plain
// values: they read as blobs do, and a new snapshot replaces the old
// table's as a blob. (A store older than blobs reading a newer file
// finds no snapshots, and rebuilds its tables from their logs, but not
// the events of earlier rounds.) One written before groups holds each
// entry alone: it reads as before, and the entries moved into it since
// are groups after them. (A store older than groups reading a newer file
// finds the tables with groups damaged.)
var (
	bucketTables   = []byte("tables")
	bucketOrder    = []byte("order")
	bucketLive     = []byte("live")
	bucketFinished = []byte("finished")
	keyRecord      = []byte("record")
	bucketLog      = []byte("log")
	keySnapshot    = []byte("snapshot")
	bucketEvents   = []byte("events")
	keySeq         = []byte("seq")
	keyFinished    = []byte("finished")
	keyBlob        = []byte("blob")
)

// snapshotVersion is the first byte of a stored snapshot record.
const snapshotVersion = 1

// maxBatch bounds how many requests one transaction commits.
const maxBatch = 256

// snapBudget is how many bytes of snapshots one commit takes: snapshots
// until they reach it (the last may cross it; one at least if any
// waits), so that a burst of round-end snapshots is spread over many
// commits instead of making the appends that share one wait for
// megabytes to be written.
const snapBudget = 128 << 10

// DefaultSnapshotLinger is how long a commit of snapshots alone, under
// snapBudget, waits for more snapshots when such waits gather some
// (lingerSnapshots). Snapshots do not hold up a table's play (the host
// writes them in the background), so a wait costs only memory the host
// keeps a little longer; each snapshot it gathers saves a bbolt commit,
// two fsyncs and the pages of the tree above the tables.
const DefaultSnapshotLinger = 100 * time.Millisecond

// DefaultLinger is how long the writer waits for more writes before a
// commit when writes come often enough for the wait to gather some (see
// WithLinger).
const DefaultLinger = 4 * time.Millisecond

// Bolt is a host.Store in one bbolt file and a write-ahead log beside it
// (appends). Every Create and Append is durable (written and fsynced)
// when it returns. Appends go through a goroutine of their own, the
// appender (appender.go), which writes the log and never waits for bbolt.
// The other writes go through one
// goroutine, the writer, that commits everything queued while the previous commit ran
// in a single transaction (group commit): alone, a table pays one commit
// per write; under load, many tables share one. When writes come often
// but not together (many tables at human pace), the writer lingers a
// moment for more before it commits (WithLinger).
type Bolt[A any] struct {
	db     *bolt.DB
	codec  Codec[A]
	reqs   chan *request
	snaps  chan *request // SaveSnapshot's, behind reqs (snapBudget)
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
	obs    Observer
	linger time.Duration
	// snapLinger is how long a commit of snapshots alone waits for more.
	snapLinger time.Duration

	apps    chan *request // Append's, to the appender
	walOps  chan walOp    // the writer's requests to the appender
	appDone chan struct{} // closed when the appender stops
	kick    chan struct{} // the appender's word that the journal is full

	jr        journal // shared by the appender, the writer and readers (its lock)
	wal       *wal    // the appender's; the writer's once it stopped (Close)
	writes    []*request
	mv        movePolicy
	checked   time.Time // when the writer last weighed the mapped pages
	dropEvery time.Duration
	mappedMax int64         // bytes of the file resident before the writer drops them
	chunkMax  time.Duration // the longest chunk of a move (its transaction), for tests
}

// Observer is told how the store performs, for an operator's metrics
// (package metrics implements it). Its methods are called from the
// writer and appender goroutines and the callers of Append: they must be quick and safe
// for concurrent use.
type Observer interface {
	// Appended is told how long an Append took, from the call until its
	// entries were durable.
	Appended(d time.Duration)
	// Committed is told of every group commit (a bbolt transaction of
	// the writer, or a write of the log by the appender): how long it took (the
	// writes and the fsyncs) and how many requests it carried (more
	// under load).
	Committed(d time.Duration, requests int)
}

type nopObserver struct{}

func (nopObserver) Appended(time.Duration)       {}
func (nopObserver) Committed(time.Duration, int) {}

// Option configures Open.
type Option func(*options)

type options struct {
	obs        Observer
	linger     time.Duration
	snapLinger time.Duration
	mv         movePolicy
	dropEvery  time.Duration
	mappedMax  int64
	segSize    int64 // the log's segments (walSegment)
}

// WithObserver has the store tell o how it performs.
func WithObserver(o Observer) Option { return func(op *options) { op.obs = o } }

// WithLinger bounds how long the writer holds a small commit back to
// gather more writes into it (DefaultLinger without the option; 0 never
// waits). It waits only while such waits have been gathering writes, so
// a quiet store commits at once (but for a probe now and then); a write
// is still acknowledged only once its commit is durable, at most d later
// than without the wait.
func WithLinger(d time.Duration) Option { return func(op *options) { op.linger = max(d, 0) } }

// WithSnapshotLinger bounds how long a commit of snapshots alone waits
// for more snapshots (DefaultSnapshotLinger without the option; 0 never
// waits). Like WithLinger, it waits only while such waits gather some,
// and any other write ends the wait.
func WithSnapshotLinger(d time.Duration) Option {
	return func(op *options) { op.snapLinger = max(d, 0) }
}

// request is one write waiting for the writer: a bbolt write, or an
// Append's encoded entries of a table (write nil); size is a snapshot's
// bytes.
type request struct {
	write func(tx *bolt.Tx) error
	err   chan error
	size  int

	table   string
	entries [][]byte
	first   uint64 // the number of the first of entries, once numbered
	fail    error  // why the append cannot be, found by the writer
}

// Open opens or creates the store at path. It fails after a second if
// another process holds the file.
func Open[A any](path string, codec Codec[A], opts ...Option) (*Bolt[A], error) {
	op := options{obs: nopObserver{}, linger: DefaultLinger, snapLinger: DefaultSnapshotLinger, mv: defaultMove, dropEvery: defaultDropEvery, mappedMax: DefaultMappedMax, segSize: walSegment}
	for _, o := range opts {
		o(&op)
	}
	if op.mv.every <= 0 {
		op.mv.every = defaultMove.every
	}
	// The freelist is not written on every commit (a page or more less per
	// transaction): bbolt rebuilds it from the file when it opens it, a
	// scan that costs once at start what each commit would cost.
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second, FreelistType: bolt.FreelistMapType, NoFreelistSync: true})
	if err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, b := range [][]byte{bucketTables, bucketOrder, bucketFinished} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return err
			}
		}
		if jb := tx.Bucket(bucketJournal); jb == nil {
			if _, err := tx.CreateBucket(bucketJournal); err != nil {
				return err
			}
		} else if k, _ := jb.Cursor().First(); k != nil {
			// Left by a crash before the writer moved it.
			if err := moveJournal(tx); err != nil {
				return fmt.Errorf("move journal: %w", err)
			}
		}
		if tx.Bucket(bucketLive) != nil {
			return nil
		}
		return addLive(tx)
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	// What the log holds after a crash goes into bbolt before anything
	// else, and its segments are retired.
	dir := walDir(path)
	segs, err := walSegments(dir)
	if err == nil {
		err = replayWAL(db, dir, segs)
	}
	var w *wal
	if err == nil {
		w, err = openWAL(dir, segs, op.segSize)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("open store %s: log: %w", path, err)
	}
	s := &Bolt[A]{wal: w, db: db, codec: codec, reqs: make(chan *request, maxBatch), snaps: make(chan *request, maxBatch), quit: make(chan struct{}), done: make(chan struct{}), obs: op.obs, linger: op.linger, snapLinger: op.snapLinger,
		apps: make(chan *request, maxBatch), walOps: make(chan walOp), appDone: make(chan struct{}), kick: make(chan struct{}, 1),
		jr: newJournal(), mv: op.mv, dropEvery: op.dropEvery, mappedMax: op.mappedMax}
	// The appender knows every live table from the start, so that the
	// first appends after a restart do not read bbolt.
	if err := db.View(func(tx *bolt.Tx) error { return knowLive(tx, s.jr.known) }); err != nil {
		w.close()
		db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	go s.appender()
	go s.writer()
	return s, nil
}

// knowLive puts the incarnation and last entry's number of every table
// not finished into known.
func knowLive(tx *bolt.Tx, known map[string]tableState) error {
	tables := tx.Bucket(bucketTables)
	return tx.Bucket(bucketLive).ForEach(func(_, id []byte) error {
		tb := tables.Bucket(id)
		if tb == nil {
			return nil // an append to it fails, as the host expects
		}
		lb := tb.Bucket(bucketLog)
		if lb == nil {
			return fmt.Errorf("%w: table %s has no log", ErrCorrupt, id)
		}
		known[string(id)] = tableState{inc: seqOf(tb), last: lb.Sequence()}
		return nil
	})
}

// addLive adds the bucket of the tables not finished to a file that has
// none: every table is in it until the host marks it finished.
func addLive(tx *bolt.Tx) error {
	live, err := tx.CreateBucket(bucketLive)
	if err != nil {
		return err
	}
	tables := tx.Bucket(bucketTables)
	return tx.Bucket(bucketOrder).ForEach(func(k, id []byte) error {
		tb := tables.Bucket(id)
		if tb == nil {
			return fmt.Errorf("%w: table %s is listed but missing", ErrCorrupt, id)
		}
		if err := tb.Put(keySeq, k); err != nil {
			return err
		}
		return live.Put(k, id)
	})
}

// Close waits for the writes in flight (the appends the appender
// gathered; those still queued fail), then the writer moves the journal
// into the tables' logs, removes the write-ahead log and closes the
// file.
func (s *Bolt[A]) Close() error {
	s.once.Do(func() { close(s.quit) })
	<-s.done
	return s.db.Close()
}

// writer commits the queued requests, as many per transaction as are
// waiting. A request whose own write fails gets its error and writes
// nothing, since its writes come before the others' in no shared state: it
// is rolled back with its whole transaction, and the others are retried in
// one without it.
//
// A small batch first waits up to s.linger for more while such waits
// gather some (lingering), so that tables acting a few milliseconds apart
// share one commit instead of paying two fsyncs each.
//
// Snapshots queue apart (s.snaps): each commit takes the other requests
// first and then snapshots up to about snapBudget bytes, so that appends
// never wait behind a commit of many snapshots.
//
// Between commits it moves the journal when it is due (journal.go), and
// once more when the store closes.
func (s *Bolt[A]) writer() {
	defer close(s.done)
	l := lingering{gain: 1, below: lingerBelow, enough: lingerEnough}
	// Snapshots come rarely at a small store: it lingers for them only
	// once a probe found that a wait gathers some.
	sl := lingering{below: lingerBelow, enough: lingerEnough}
	idle := time.NewTicker(s.mv.every)
	defer idle.Stop()
	batch := make([]*request, 0, maxBatch)
	for {
		batch = batch[:0]
		if s.jr.draining && s.jr.due(time.Now(), s.mv) {
			// A drain goes on chunk by chunk while nothing waits, and
			// between commits otherwise.
			select {
			case r := <-s.reqs:
				batch = append(batch, r)
			case r := <-s.snaps:
				batch = append(batch, r)
			default:
				s.move()
				s.dropPages(time.Now())
				continue
			}
		}
		if len(batch) == 0 {
			select {
			case r := <-s.reqs:
				batch = append(batch, r)
			case r := <-s.snaps:
				batch = append(batch, r)
			case <-s.kick:
				if s.jr.due(time.Now(), s.mv) {
					s.move()
				}
				s.dropPages(time.Now())
				continue
			case <-idle.C:
				if s.jr.due(time.Now(), s.mv) {
					s.move()
				}
				s.dropPages(time.Now())
				continue
			case <-s.quit:
				<-s.appDone // the log is the writer's from here on
				s.closeJournal()
				return
			}
		}
		batch = l.gather(s.reqs, batch, s.linger, s.quit)
		batch = s.addSnapshots(batch)
		batch = s.lingerSnapshots(&sl, batch)
		s.commit(batch)
		clear(batch) // no request outlives its commit here
		if s.jr.due(time.Now(), s.mv) {
			s.move()
		}
		s.dropPages(time.Now())
	}
}

// defaultDropEvery is how often the writer weighs the file's pages in
// the process's resident set (dropPages).
const defaultDropEvery = 10 * time.Second

// DefaultMappedMax is how much of the file may stay mapped in the
// process's resident set before the writer drops it (dropPages).
const DefaultMappedMax = 256 << 20

// WithMappedMax has the writer drop the file's pages from the process's
// resident set once more than n bytes of mapped files are resident (0:
// at every check), instead of DefaultMappedMax.
func WithMappedMax(n int64) Option { return func(op *options) { op.mappedMax = max(n, 0) } }

// dropPages drops the pages of the file mapped into the process from its
// resident set once the resident mapped files exceed s.mappedMax, checked
// at most every s.dropEvery. bbolt reads the file through a shared
// mapping; every page a transaction or a reader ever touched stays mapped
// and counts in the process's RSS (RssFile), with up to 15 neighbours the
// kernel maps around each fault, though it may reclaim them like any page
// cache. With a file of hundreds of MB, most of it written once and read
// back rarely (old rounds' events, moved logs), that grows into a large
// part of the server's RSS. Dropped, the pages stay in the page cache;
// those that transactions keep using are mapped again at their next
// touch, a minor fault each. Those faults are why it waits for the
// budget: dropping at every check (and after every chunk of a move) made
// the writer fault its working set back in again and again, a third of
// the server's CPU at 10,000 tables on one machine (docs/store.md).
//
// Only the writer calls it, between transactions: bbolt remaps the file
// only in a write transaction (as it grows), so the mapping it reads
// here (DB.Info) stays put meanwhile, and Tx.Size, the pages in use, is
// never past its end.
func (s *Bolt[A]) dropPages(now time.Time) {
	if now.Sub(s.checked) < s.dropEvery {
		return
	}
	s.checked = now
	if s.mappedMax > 0 {
		if n, ok := residentMapped(); !ok || n <= s.mappedMax {
			return
		}
	}
	var size int64
	if err := s.db.View(func(tx *bolt.Tx) error { size = tx.Size(); return nil }); err != nil {
		return
	}
	// A failure leaves the pages resident, which is only what they were.
	_ = dropMapped(s.db.Info().Data, uintptr(size))
}

// drainQueue adds the requests waiting in q to batch, up to maxBatch.
func drainQueue(q chan *request, batch []*request) []*request {
	for len(batch) < maxBatch {
		select {
		case r := <-q:
			batch = append(batch, r)
		default:
			return batch
		}
	}
	return batch
}

// addSnapshots adds the snapshots waiting to batch until they, with any
// already in it, reach snapBudget bytes.
func (s *Bolt[A]) addSnapshots(batch []*request) []*request {
	used := 0
	for _, r := range batch {
		used += r.size
	}
	for len(batch) < maxBatch && used < snapBudget {
		select {
		case r := <-s.snaps:
			batch = append(batch, r)
			used += r.size
		default:
			return batch
		}
	}
	return batch
}

// lingerSnapshots lets a batch of snapshots alone, under snapBudget,
// wait up to s.snapLinger for more (while l finds that such waits gather
// some), until they reach the budget or another write comes, which joins
// the batch and ends the wait. At 10,000 tables snapshots come some 20 a
// second, tens of milliseconds apart, each alone in a commit otherwise.
// A batch with any other write (a Create waits for it) commits at once,
// and so does one during a drain of the journal, which moves a chunk
// after each commit: a wait there would hold the drain up.
func (s *Bolt[A]) lingerSnapshots(l *lingering, batch []*request) []*request {
	if s.jr.draining {
		return batch
	}
	used := 0
	for _, r := range batch {
		if r.size == 0 {
			return batch
		}
		used += r.size
	}
	if s.snapLinger <= 0 || used >= snapBudget || !l.want(len(batch)) {
		return batch
	}
	l.arm(s.snapLinger)
	took := 0
wait:
	for used < snapBudget && len(batch) < maxBatch {
		select {
		case r := <-s.snaps:
			batch = append(batch, r)
			used += r.size
			took++
		case r := <-s.reqs:
			batch = append(batch, r)
			break wait
		case <-l.wait.C:
			break wait
		case <-s.quit:
			break wait
		}
	}
	l.wait.Stop()
	l.gathered(took)
	return drainQueue(s.reqs, batch)
}

// lingerBelow is the batch below which the writer may linger: a batch
// this large shares its commit well enough already. A wait ends early
// once the batch holds lingerEnough, so that the writer waits long at
// human pace (a few hundred writes a second, a request every few
// milliseconds) and briefly when writes come faster.
const (
	lingerBelow  = 4
	lingerEnough = 8
)

// appendBelow and appendEnough are the appender's: it waits for more
// appends while a batch holds fewer than 32, up to the linger. A flush of
// the log is one write and one fdatasync whatever it carries, and at
// 10,000 tables (4,500 appends a second) the appender, flushing some 400
// times a second with batches of about 12, was the store's largest cost:
// 17% of the server's CPU, most of it the fdatasyncs. With 32, half as
// many flushes (docs/store.md, *Larger group commits of appends*). Where
// appends are sparse, the waits gather little and stop (minGain), as
// before.
const (
	appendBelow  = 32
	appendEnough = 32
)

// lingering judges whether waiting for more requests pays: it keeps a
// moving average of how many requests the recent waits gathered, and
// waits only while that is at least minGain. When waits stop
// paying (one table alone, whose next write waits for this commit) it
// tries again every probeEvery small batches, so that a store that gets
// busy starts lingering again.
type lingering struct {
	gain  float64     // requests gathered per wait, averaged
	since int         // small batches since the last wait
	wait  *time.Timer // the wait's, reused
	// A batch below below may wait; one of enough ends a wait.
	below, enough int
}

// arm starts the wait's timer for d.
func (l *lingering) arm(d time.Duration) {
	if l.wait == nil {
		l.wait = time.NewTimer(d)
	} else {
		l.wait.Reset(d)
	}
}

// gather adds the requests waiting on q to batch and, when a wait pays
// (want), waits up to d for more, until l's enough or quit: the writer's
// and the appender's group commit alike.
func (l *lingering) gather(q chan *request, batch []*request, d time.Duration, quit <-chan struct{}) []*request {
	batch = drainQueue(q, batch)
	if d <= 0 || !l.want(len(batch)) {
		return batch
	}
	before := len(batch)
	l.arm(d)
linger:
	for len(batch) < l.enough {
		select {
		case r := <-q:
			batch = append(batch, r)
		case <-l.wait.C:
			break linger
		case <-quit:
			break linger
		}
	}
	l.wait.Stop()
	batch = drainQueue(q, batch)
	l.gathered(len(batch) - before)
	return batch
}

const probeEvery = 32

// minGain is the fewest requests a wait must gather on average to go on
// waiting: a quarter of a request (each saves a commit of about two
// fsyncs, worth a wait of a millisecond or two at human pace).
const minGain = 0.25

// want reports whether to wait before committing a batch of n.
func (l *lingering) want(n int) bool {
	if n >= l.below {
		return false
	}
	l.since++
	return l.gain >= minGain || l.since >= probeEvery
}

// gathered counts the requests one wait gathered.
func (l *lingering) gathered(n int) {
	l.since = 0
	l.gain += (float64(n) - l.gain) / 4
}

// commit commits a batch of bbolt writes in one transaction.
func (s *Bolt[A]) commit(batch []*request) {
	start := time.Now()
	s.commitTx(batch)
	s.obs.Committed(time.Since(start), len(batch))
}

// commitTx commits bbolt writes in one transaction.
func (s *Bolt[A]) commitTx(batch []*request) {
	var failed *request
	var failErr error
	err := s.db.Update(func(tx *bolt.Tx) error {
		s.jr.begin()
		for _, r := range batch {
			if err := r.write(tx); err != nil {
				failed, failErr = r, err
				return err
			}
		}
		return nil
	})
	switch {
	case err == nil:
		s.jr.committed()
		for _, r := range batch {
			r.err <- nil
		}
	case failed != nil && len(batch) > 1:
		// One request is wrong; the transaction is gone. The others go
		// again without it.
		failed.err <- failErr
		rest := make([]*request, 0, len(batch)-1)
		for _, r := range batch {
			if r != failed {
				rest = append(rest, r)
			}
		}
		s.commitTx(rest)
	default:
		// The commit itself failed (a full disk, an I/O error): nothing
		// of the batch is stored.
		for _, r := range batch {
			r.err <- err
		}
	}
}

// do queues a write and waits until it is durable.
func (s *Bolt[A]) do(ctx context.Context, write func(tx *bolt.Tx) error) error {
	return s.queue(ctx, s.reqs, s.done, &request{write: write, err: make(chan error, 1)})
}

// queue puts r on q, served by the goroutine that closes done when it
// stops, and waits until its write is durable.
func (s *Bolt[A]) queue(ctx context.Context, q chan *request, done chan struct{}, r *request) error {
	_, err := s.queueSettled(ctx, q, done, r)
	return err
}

// queueSettled is queue that also tells whether r is the caller's alone
// again: it was never queued, or it was answered (the goroutine that
// serves q answers a request last; appender.go). A request still queued
// when its goroutine stopped is not.
func (s *Bolt[A]) queueSettled(ctx context.Context, q chan *request, done chan struct{}, r *request) (settled bool, err error) {
	select {
	case q <- r:
	case <-s.quit:
		return true, ErrClosed
	case <-ctx.Done():
		return true, ctx.Err()
	}
	// Once queued the write happens; wait for it even if ctx ends, so that
	// the caller never guesses about a write in flight.
	select {
	case err := <-r.err:
		return true, err
	case <-done:
		select {
		case err := <-r.err:
			return true, err
		default:
			return false, ErrClosed
		}
	}
}

// Create records a new table.
func (s *Bolt[A]) Create(ctx context.Context, rec host.TableRecord) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("store: record of %s: %w", rec.ID, err)
	}
	return s.do(ctx, func(tx *bolt.Tx) error {
		tb, err := tx.Bucket(bucketTables).CreateBucket([]byte(rec.ID))
		if err != nil {
			return fmt.Errorf("store: table %s: %w", rec.ID, err)
		}
		if err := tb.Put(keyRecord, raw); err != nil {
			return err
		}
		if _, err := tb.CreateBucket(bucketLog); err != nil {
			return err
		}
		order := tx.Bucket(bucketOrder)
		n, err := order.NextSequence()
		if err != nil {
			return err
		}
		if err := tb.Put(keySeq, key(n)); err != nil {
			return err
		}
		s.jr.created(rec.ID, n)
		if err := tx.Bucket(bucketLive).Put(key(n), []byte(rec.ID)); err != nil {
			return err
		}
		return order.Put(key(n), []byte(rec.ID))
	})
}

// Finish marks a table's game over: recovery leaves it alone from now on.
func (s *Bolt[A]) Finish(ctx context.Context, table string, at time.Time) error {
	return s.do(ctx, func(tx *bolt.Tx) error {
		tb := tx.Bucket(bucketTables).Bucket([]byte(table))
		if tb == nil {
			return fmt.Errorf("bolt store: table %s: %w", table, host.ErrNoTable)
		}
		if tb.Get(keyFinished) != nil {
			return nil
		}
		when := key(uint64(at.UnixNano()))
		if err := tb.Put(keyFinished, when); err != nil {
			return err
		}
		if err := tx.Bucket(bucketFinished).Put(finishedKey(when, table), nil); err != nil {
			return err
		}
		s.jr.forget(table, false)
		if seq := tb.Get(keySeq); seq != nil {
			return tx.Bucket(bucketLive).Delete(seq)
		}
		return nil
	})
}

// finishedKey is a table's key in the bucket of finished tables.
func finishedKey(when []byte, table string) []byte {
	return append(append(make([]byte, 0, len(when)+len(table)), when...), table...)
}

// Delete forgets a table.
func (s *Bolt[A]) Delete(ctx context.Context, table string) error {
	return s.do(ctx, func(tx *bolt.Tx) error { return s.deleteTable(tx, table) })
}

// deleteTable removes a table, its entries in the journal and its places
// in the indexes.
func (s *Bolt[A]) deleteTable(tx *bolt.Tx, table string) error {
	tables := tx.Bucket(bucketTables)
	tb := tables.Bucket([]byte(table))
	if tb == nil {
		return nil
	}
	s.jr.forget(table, true)
	if seq := tb.Get(keySeq); seq != nil {
		if err := tx.Bucket(bucketOrder).Delete(seq); err != nil {
			return err
		}
		if err := tx.Bucket(bucketLive).Delete(seq); err != nil {
			return err
		}
	}
	if when := tb.Get(keyFinished); when != nil {
		if err := tx.Bucket(bucketFinished).Delete(finishedKey(when, table)); err != nil {
			return err
		}
	}
	return tables.DeleteBucket([]byte(table))
}

// pruneBatch bounds the tables one pruning transaction deletes, so that
// pruning a backlog does not hold the writer for long.
const pruneBatch = 256

// Prune deletes the tables finished before the given time, oldest first,
// pruneBatch tables per transaction. The file does not shrink: bbolt
// reuses the freed pages for new tables.
func (s *Bolt[A]) Prune(ctx context.Context, before time.Time) (int, error) {
	limit := uint64(before.UnixNano())
	total := 0
	for {
		n := 0
		err := s.do(ctx, func(tx *bolt.Tx) error {
			n = 0
			var keys [][]byte
			finished := tx.Bucket(bucketFinished)
			c := finished.Cursor()
			for k, _ := c.First(); k != nil && len(keys) < pruneBatch; k, _ = c.Next() {
				if len(k) < 8 || binary.BigEndian.Uint64(k[:8]) >= limit {
					break
				}
				keys = append(keys, bytes.Clone(k))
			}
			for _, k := range keys {
				id := string(k[8:])
				if err := s.deleteTable(tx, id); err != nil {
					return fmt.Errorf("table %s: %w", id, err)
				}
				// Gone with the table; deleted here too, so that an index
				// entry whose table is missing cannot stall the pruning.
				if err := finished.Delete(k); err != nil {
					return err
				}
			}
			n = len(keys)
			return nil
		})
		if err != nil {
			// Nothing of this batch was committed.
			return total, fmt.Errorf("store: prune: %w", err)
		}
		total += n
		if n < pruneBatch {
			return total, nil
		}
	}
}

// Append adds entries to a table's log, all or none. They are durable in
// the write-ahead log when it returns, and in the journal, where every
// reader finds them as if they were in the log.
func (s *Bolt[A]) Append(ctx context.Context, table string, entries ...host.Entry[A]) error {
	r := appendRequests.Get().(*request)
	r.table = table
	for i := range entries {
		v, err := AppendEntry(make([]byte, 0, entryRoom(&entries[i])), s.codec, &entries[i])
		if err != nil {
			recycle(r)
			return fmt.Errorf("bolt store: table %s: %w", table, err)
		}
		r.entries = append(r.entries, v)
	}
	start := time.Now()
	settled, err := s.queueSettled(ctx, s.apps, s.appDone, r)
	s.obs.Appended(time.Since(start))
	if settled {
		recycle(r)
	}
	return err
}

// appendRequests holds Append's requests, each with its channel, for
// the next Appends: two allocations an append fewer. A request comes
// back only once its caller has its answer (queueSettled): the appender
// answers the requests of a flush last, after the journal took their
// entries (the encodings, which are never reused, not the slice that
// holds them), and touches none of them after, so no goroutine holds
// one then. One still queued when the store closed is left to the
// collector.
var appendRequests = sync.Pool{New: func() any { return &request{err: make(chan error, 1)} }}

// recycle puts an Append's request back into appendRequests, emptied.
func recycle(r *request) {
	clear(r.entries) // the encodings are the journal's now, or garbage
	*r = request{err: r.err, entries: r.entries[:0]}
	appendRequests.Put(r)
}

// SaveSnapshot stores a table's snapshot, replacing its previous one; its
// Events are kept with those of the earlier snapshots. It is durable when
// it returns, like a Create or an Append, but it yields to them: a commit
// carries snapshots up to about snapBudget bytes after every other write
// waiting, so that a burst of snapshots (many tables ending their rounds
// together) waits rather than the appends.
func (s *Bolt[A]) SaveSnapshot(ctx context.Context, table string, snap host.TableSnapshot) error {
	rec := make([]byte, 0, 9+len(snap.State))
	rec = append(rec, snapshotVersion)
	rec = binary.BigEndian.AppendUint64(rec, snap.Entries)
	rec = append(rec, snap.State...)
	events := bytes.Clone(snap.Events)
	if events == nil {
		events = []byte{}
	}
	write := func(tx *bolt.Tx) error {
		tb := tx.Bucket(bucketTables).Bucket([]byte(table))
		if tb == nil {
			return fmt.Errorf("bolt store: table %s: %w", table, host.ErrNoTable)
		}
		if n := s.jr.lastOf(table, tb); snap.Entries > n {
			return fmt.Errorf("bolt store: table %s: snapshot of %d entries, log of %d: %w", table, snap.Entries, n, host.ErrNoSnapshot)
		}
		eb, err := tb.CreateBucketIfNotExists(bucketEvents)
		if err != nil {
			return err
		}
		if err := putBlob(eb, key(snap.Entries), events); err != nil {
			return err
		}
		return putBlob(tb, keySnapshot, rec)
	}
	return s.queue(ctx, s.snaps, s.done, &request{write: write, err: make(chan error, 1), size: len(rec) + len(events)})
}

// Load calls f for every table not finished, in the order of creation,
// with its latest snapshot and the entries after it. It reads the index
// of the tables not finished only.
func (s *Bolt[A]) Load(ctx context.Context, f func(host.TableRecord, *host.TableSnapshot, []host.Entry[A]) error) error {
	var ids []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketLive).ForEach(func(_, v []byte) error {
			ids = append(ids, string(v))
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("store: tables: %w", err)
	}
	var damaged []error
	for len(ids) > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		batch := ids[:min(len(ids), loadBatch)]
		ids = ids[len(batch):]
		tables, err := s.loadBatch(batch)
		if err != nil {
			return fmt.Errorf("store: tables: %w", err)
		}
		for i, t := range tables {
			if errors.Is(t.err, host.ErrNoTable) {
				continue // deleted since the index was read
			}
			if t.err != nil {
				// One table that does not decode keeps no other from loading.
				damaged = append(damaged, &host.DamagedError{ID: batch[i], Err: t.err})
				continue
			}
			if err := f(t.rec, t.snap, t.entries); err != nil {
				return err
			}
		}
	}
	return errors.Join(damaged...)
}

// loadBatch is how many tables Load reads in one transaction.
const loadBatch = 256

// loaded is a table as Load reads it.
type loaded[A any] struct {
	rec     host.TableRecord
	snap    *host.TableSnapshot
	entries []host.Entry[A]
	err     error
}

// loadBatch reads the given tables in one transaction.
func (s *Bolt[A]) loadBatch(ids []string) ([]loaded[A], error) {
	out := make([]loaded[A], len(ids))
	mem := s.jr.viewMany(ids) // before the transaction: see entries
	err := s.db.View(func(tx *bolt.Tx) error {
		for i, id := range ids {
			t := &out[i]
			t.rec, t.snap, t.entries, t.err = s.loadIn(tx, id, mem[id])
		}
		return nil
	})
	return out, err
}

// LoadTable returns one table, finished or not.
func (s *Bolt[A]) LoadTable(_ context.Context, table string) (host.TableRecord, *host.TableSnapshot, []host.Entry[A], error) {
	return s.load(table)
}

func (s *Bolt[A]) load(id string) (rec host.TableRecord, snap *host.TableSnapshot, entries []host.Entry[A], err error) {
	mem := s.jr.view(id)
	verr := s.db.View(func(tx *bolt.Tx) error {
		rec, snap, entries, err = s.loadIn(tx, id, mem)
		return nil
	})
	if verr != nil {
		return rec, nil, nil, fmt.Errorf("store: table %s: %w", id, verr)
	}
	return rec, snap, entries, err
}

// loadIn reads a table in tx; mem is what the journal held of it just
// before tx began.
func (s *Bolt[A]) loadIn(tx *bolt.Tx, id string, mem memLog) (host.TableRecord, *host.TableSnapshot, []host.Entry[A], error) {
	var rec host.TableRecord
	var snap *host.TableSnapshot
	var entries []host.Entry[A]
	err := func() error {
		tb := tx.Bucket(bucketTables).Bucket([]byte(id))
		if tb == nil {
			return fmt.Errorf("table %s: %w", id, host.ErrNoTable)
		}
		if err := json.Unmarshal(tb.Get(keyRecord), &rec); err != nil {
			return fmt.Errorf("%w: record: %w", ErrCorrupt, err)
		}
		var from uint64
		if raw := getBlob(tb, keySnapshot); raw != nil {
			// A snapshot this store cannot read is no snapshot: the host
			// replays the whole log.
			if len(raw) >= 9 && raw[0] == snapshotVersion {
				snap = &host.TableSnapshot{Entries: binary.BigEndian.Uint64(raw[1:9]), State: bytes.Clone(raw[9:])}
				from = snap.Entries
			}
		}
		var err error
		entries, err = s.entries(tx, tb, from, mem)
		return err
	}()
	if err != nil {
		return rec, nil, nil, fmt.Errorf("store: table %s: %w", id, err)
	}
	return rec, snap, entries, nil
}

// entries decodes a table's entries from the from-th on: those of its
// log, then those of mem (what the journal held of it before tx began:
// those moved since are in the log too, and skipped; those of a table
// deleted since, and created again, are not this table's).
func (s *Bolt[A]) entries(tx *bolt.Tx, tb *bolt.Bucket, from uint64, mem memLog) ([]host.Entry[A], error) {
	var entries []host.Entry[A]
	next := from + 1
	c := tb.Bucket(bucketLog).Cursor()
	for k, v := seekEntry(c, from+1); k != nil; k, v = c.Next() {
		g, err := readGroup(v)
		if err != nil {
			return nil, fmt.Errorf("entry %x: %w", k, err)
		}
		for n := binary.BigEndian.Uint64(k); ; n++ {
			raw, err := g.next()
			if err != nil {
				return nil, fmt.Errorf("entry %d: %w", n, err)
			}
			if raw == nil {
				break
			}
			if n <= from {
				continue // in the group before from+1
			}
			e, err := decodeEntry(raw, s.codec)
			if err != nil {
				return nil, fmt.Errorf("entry %d: %w", n, err)
			}
			entries = append(entries, e)
			next = n + 1
		}
	}
	if len(mem.entries) == 0 || mem.inc != seqOf(tb) {
		return entries, nil
	}
	for _, p := range mem.entries {
		if p.n < next {
			continue // before from, or moved already
		}
		if p.n != next {
			return nil, fmt.Errorf("%w: entry %d of the journal, %d expected", ErrCorrupt, p.n, next)
		}
		e, err := decodeEntry(p.raw, s.codec)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", p.n, err)
		}
		entries = append(entries, e)
		next++
	}
	return entries, nil
}

// seekEntry moves c to the value of a table's log that holds entry n, or
// the first after it: a value under n, or a group under a lower key that
// reaches it (group.go).
func seekEntry(c *bolt.Cursor, n uint64) ([]byte, []byte) {
	k, v := c.Seek(key(n))
	if k != nil && binary.BigEndian.Uint64(k) == n {
		return k, v
	}
	var pk, pv []byte
	if k == nil {
		pk, pv = c.Last()
	} else {
		pk, pv = c.Prev()
	}
	if pk != nil {
		// A group that does not read is returned, for the caller's error.
		if g, err := readGroup(pv); err != nil || binary.BigEndian.Uint64(pk)+g.count() > n {
			return pk, pv
		}
	}
	return c.Seek(key(n))
}

// LoadEntries returns a table's entries from the from-th on.
func (s *Bolt[A]) LoadEntries(_ context.Context, table string, from uint64) ([]host.Entry[A], error) {
	var entries []host.Entry[A]
	mem := s.jr.view(table)
	err := s.db.View(func(tx *bolt.Tx) error {
		tb := tx.Bucket(bucketTables).Bucket([]byte(table))
		if tb == nil {
			return fmt.Errorf("table %s: %w", table, host.ErrNoTable)
		}
		var err error
		entries, err = s.entries(tx, tb, from, mem)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return entries, nil
}

// LoadEvents returns the Events of a table's snapshot.
func (s *Bolt[A]) LoadEvents(_ context.Context, table string, entries uint64) ([]byte, error) {
	var out []byte
	err := s.db.View(func(tx *bolt.Tx) error {
		tb := tx.Bucket(bucketTables).Bucket([]byte(table))
		if tb == nil {
			return fmt.Errorf("table %s: %w", table, host.ErrNoTable)
		}
		var raw []byte
		if eb := tb.Bucket(bucketEvents); eb != nil {
			raw = getBlob(eb, key(entries))
		}
		if raw == nil {
			return fmt.Errorf("table %s: events of the snapshot at %d: %w", table, entries, host.ErrNoSnapshot)
		}
		out = bytes.Clone(raw)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	return out, nil
}

// putBlob stores v under k in b as a blob: in a bucket of its own under
// k, as its only value (under keyBlob). A snapshot's state and events are
// tens of kB; as plain values they would share leaf pages with their
// neighbours (bbolt never splits a leaf of four keys or fewer, however
// large they are), and every change to a neighbour would write them
// again: the state with the table's record whenever its log moves, the
// events of up to four rounds whenever a round ends. In a bucket of its
// own, a blob is written once, when it is stored, and its parent's leaf
// holds only the bucket's small header. A plain value under k (a file
// written before blobs) is replaced.
func putBlob(b *bolt.Bucket, k, v []byte) error {
	if b.Get(k) != nil {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	bb, err := b.CreateBucketIfNotExists(k)
	if err != nil {
		return err
	}
	return bb.Put(keyBlob, v)
}

// getBlob returns the blob under k in b (putBlob), or the plain value
// under k of a file written before blobs; nil if there is neither.
func getBlob(b *bolt.Bucket, k []byte) []byte {
	if v := b.Get(k); v != nil {
		return v
	}
	if bb := b.Bucket(k); bb != nil {
		return bb.Get(keyBlob)
	}
	return nil
}

func key(n uint64) []byte {
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], n)
	return k[:]
}
