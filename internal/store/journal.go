package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The journal is the entries that are durable in the write-ahead log
// (wal.go) and not yet in their tables' logs in bbolt, kept in memory by
// table. An Append writes its entries to the log and, once they are
// durable, adds them here; readers read them here (under the journal's
// lock, before their bbolt transaction) and add those past the log's
// last after the log's (entries), so that an entry reads the same before
// and after it moves. The writer moves them into the tables' logs,
// moveChunk tables a bbolt transaction between commits, each table's
// entries since the last move at once, so that a table's pages are
// written once for several of its entries and a move holds the writer
// only briefly.
//
// A move of every table is a drain. It starts the log's next segment
// first; once it is done, every entry of the segments before that one is
// in bbolt or belongs to a table deleted since, and they are retired. A
// crash leaves every entry in the log, in bbolt or both, and the numbers
// tell which; Open moves what the log holds (replayWAL), but the entries
// of tables deleted since (their creation sequence, kept in each record,
// is another table's or none).
//
// Before the log, the journal was a bbolt bucket keyed by a global
// sequence (bucketJournal): a file an older build left with entries in it
// has them moved at Open (moveJournal), and the bucket is kept, empty,
// for an older build to open the file.
var bucketJournal = []byte("journal")

// When the writer moves the journal (movePolicy): it moves every table's
// entries, moveChunk tables a transaction between commits. Longer waits
// give a table more entries to move at once, and keep more entries in
// memory and in the log. A move writes two or three pages of each table
// whatever it moves, so at human pace it is the wait that pays
// (BenchmarkHumanPace at 300 appends a second for 40 s: 20% fewer bytes
// written per append with 30 s than with 10 s). How long a wait pays
// depends on the tables: 8,192 entries are eight a table at 1,000
// tables and less than one at 10,000, where a move wrote three pages for
// each entry and took 40% of the store's CPU (BenchmarkScalePace). So
// the journal waits for a few entries a table on average, up to a bound
// on its length.
//
// A chunk is one bbolt transaction: two fsyncs and the branch pages
// above its tables, whatever it carries. Appends never wait for a chunk
// (the log is the appender's), but a Create, a Finish or a snapshot that
// comes during one waits for it. Chunks of 256 tables saved nothing
// measurable in BenchmarkScalePace (the pages of the tables themselves
// are most of a chunk's cost) and the longest took 47 and 66 ms, against
// 14 and 33 ms for 64 in the runs alternated with them (docs/store.md).
const moveChunk = 64

// movePolicy is when the writer moves the journal: once it holds max
// entries, once its oldest is every old, or once it holds at least at
// entries and perTable for each table with entries in it.
type movePolicy struct {
	every    time.Duration
	at       int
	perTable int
	max      int
}

// defaultMove: 8,192 entries bound the journal at up to 1,024 tables;
// from there on it holds eight entries a table, up to 131,072 (some
// 25 MB of memory and of log at the bound; at 10,000 tables, a move every
// 40 s at 2,000 appends a second). Four a table wrote each table's pages for half
// as many entries. A store too quiet to gather that many moves every two
// minutes, so that its log does not linger for ever.
var defaultMove = movePolicy{every: 2 * time.Minute, at: 8 << 10, perTable: 8, max: 128 << 10}

// pendingEntry is an entry in the journal: its number and its encoding.
type pendingEntry struct {
	n   uint64
	raw []byte
}

// pending is what the journal holds of one table. Its entries are only
// ever appended to (never written in place), so that a reader may keep
// the slice it read under the lock.
type pending struct {
	inc     uint64 // the table's creation sequence
	last    uint64 // the number of its last entry
	entries []pendingEntry
}

// tableState is what the store knows of a table in memory: its
// incarnation (creation sequence) and the number of its last entry.
type tableState struct{ inc, last uint64 }

// journal is the entries not moved, and what the appender needs to number
// an append without bbolt. Two goroutines change it, under mu: the
// appender (appender.go) adds entries after each flush of the log and
// advances known; the writer applies what its committed transactions
// did (a table created, finished, deleted; entries moved). Readers read
// tables under mu too. A bbolt transaction's changes are kept apart
// (tx*, the writer's only) and applied only once it commits.
type journal struct {
	mu     sync.RWMutex
	tables map[string]*pending // tables with entries not moved

	// known holds the tables the appender may number without looking
	// them up in bbolt: every live table (read at Open), every table
	// created since, and any it looked up; a table leaves it when it
	// finishes (few append after, and it would stay for ever) or is
	// deleted. gen counts deletions, so that a look-up that raced with
	// one does not put back a table it removed.
	known map[string]tableState
	gen   uint64
	n     int       // entries not moved
	since time.Time // when the oldest of them was flushed, or earlier

	// The writer's only.
	draining  bool      // moving every table, chunk by chunk
	queue     []string  // tables left to move in this drain, sorted
	drainFrom uint64    // the first segment of the log this drain does not empty
	drainAt   time.Time // when it started
	retry     time.Time // no move before this, after one failed

	batch map[string]tableState // the appender's: the numbering of the appends being flushed

	txGone  map[string]bool // tables this transaction deleted
	txOps   []journalOp
	txMoved []movedTable // what this transaction moved
}

// journalOp is a transaction's change to the account: a table created
// (inc its creation sequence) or forgotten (finished: it is looked up
// again at its next append; deleted: its entries are dropped too).
type journalOp struct {
	table   string
	created bool
	deleted bool
	inc     uint64
}

// movedTable is what a move took of one table: the entries the journal
// held of it then. Only those leave the journal once the move commits:
// the appender may have added more meanwhile.
type movedTable struct {
	table   string
	inc     uint64
	entries []pendingEntry
}

func newJournal() journal {
	return journal{tables: make(map[string]*pending), known: make(map[string]tableState),
		batch: make(map[string]tableState), txGone: make(map[string]bool)}
}

// begin starts a transaction's account (again, after a failed attempt).
func (j *journal) begin() {
	clear(j.txGone)
	clear(j.txOps)
	j.txOps = j.txOps[:0]
	clear(j.txMoved)
	j.txMoved = j.txMoved[:0]
}

// committed applies the committed transaction's account, before its
// requests are answered: a Create that returned is known to the
// appender, so that an Append after it finds the table.
func (j *journal) committed() {
	j.mu.Lock()
	for _, op := range j.txOps {
		switch {
		case op.created:
			j.known[op.table] = tableState{inc: op.inc}
		case op.deleted:
			delete(j.known, op.table)
			j.gen++
			if p := j.tables[op.table]; p != nil {
				j.n -= len(p.entries)
				delete(j.tables, op.table)
			}
		default:
			delete(j.known, op.table)
		}
	}
	j.dropMoved(j.txMoved)
	j.mu.Unlock()
	j.begin()
}

// dropMoved removes from the journal what a committed move took (under
// mu): the entries it read of each table, not those added since.
func (j *journal) dropMoved(moved []movedTable) {
	for _, m := range moved {
		p := j.tables[m.table]
		if p == nil || p.inc != m.inc {
			continue
		}
		if k := len(m.entries); k < len(p.entries) {
			// A new slice: readers may hold the old one.
			p.entries = slices.Clone(p.entries[k:])
			j.n -= k
		} else {
			j.n -= len(p.entries)
			delete(j.tables, m.table)
		}
	}
	if j.n == 0 {
		j.since = time.Time{}
	}
}

// created records that this transaction creates table as incarnation inc.
func (j *journal) created(table string, inc uint64) {
	j.txOps = append(j.txOps, journalOp{table: table, created: true, inc: inc})
}

// forget has the appender look table up again at its next append after
// this transaction: it finished or is deleted (and its entries go with
// it: a table created again under its id starts a log of its own).
func (j *journal) forget(table string, deleted bool) {
	if deleted {
		j.txGone[table] = true
	}
	j.txOps = append(j.txOps, journalOp{table: table, deleted: deleted})
}

// lastOf returns the number of the last entry of table, whose bucket is
// tb, as of the transaction under way. An append acknowledged before the
// transaction began is in known or the journal.
func (j *journal) lastOf(table string, tb *bolt.Bucket) uint64 {
	seq := tb.Bucket(bucketLog).Sequence()
	if j.txGone[table] {
		return seq
	}
	inc := seqOf(tb)
	j.mu.RLock()
	defer j.mu.RUnlock()
	if st, ok := j.known[table]; ok && st.inc == inc {
		return max(st.last, seq)
	}
	if p := j.tables[table]; p != nil && p.inc == inc {
		return max(p.last, seq)
	}
	return seq
}

// due reports whether the writer should move a chunk now.
func (j *journal) due(now time.Time, p movePolicy) bool {
	if now.Before(j.retry) {
		return false
	}
	j.mu.RLock()
	defer j.mu.RUnlock()
	if j.n == 0 {
		return false
	}
	return j.draining || now.Sub(j.since) >= p.every || j.full(p)
}

// full reports whether the journal holds as many entries as p lets it
// (under mu).
func (j *journal) full(p movePolicy) bool {
	return j.n >= p.max || j.n >= p.at && j.n >= p.perTable*len(j.tables)
}

// memLog is what a reader found of a table in the journal.
type memLog struct {
	inc     uint64
	entries []pendingEntry
}

// view returns the journal's entries of table.
func (j *journal) view(table string) memLog {
	j.mu.RLock()
	defer j.mu.RUnlock()
	if p := j.tables[table]; p != nil {
		return memLog{p.inc, p.entries}
	}
	return memLog{}
}

// viewMany returns the journal's entries of the given tables that have
// some.
func (j *journal) viewMany(tables []string) map[string]memLog {
	j.mu.RLock()
	defer j.mu.RUnlock()
	var out map[string]memLog
	for _, id := range tables {
		if p := j.tables[id]; p != nil {
			if out == nil {
				out = make(map[string]memLog)
			}
			out[id] = memLog{p.inc, p.entries}
		}
	}
	return out
}

// seqOf is a table's creation sequence, its key in "order".
func seqOf(tb *bolt.Bucket) uint64 {
	if k := tb.Get(keySeq); len(k) == 8 {
		return binary.BigEndian.Uint64(k)
	}
	return 0
}

// move moves the next chunk of tables in a transaction of its own,
// starting a drain of every table if none is under way. A move that
// fails is tried again after movePolicy.every; the entries stay in the
// journal meanwhile, where every reader sees them.
//
// A drain starts by having the appender start the log's next segment
// (rotateWAL), between two of its flushes: every entry of the segments
// before it was flushed before, and so is in the journal already (the
// appender adds a flush's entries before it serves anything else). The
// drain moves every table the journal then holds, each with what it
// holds of it when its chunk is moved (those entries and maybe later
// ones); once the last chunk is durable, every entry of the segments
// before the drain's first is in bbolt (or of a table deleted since), and
// the appender retires them.
func (s *Bolt[A]) move() {
	j := &s.jr
	if !j.draining {
		num, err := s.rotateWAL()
		if err != nil {
			j.retry = time.Now().Add(s.mv.every)
			return
		}
		j.draining = true
		j.drainFrom, j.drainAt = num, time.Now()
		j.queue = j.queue[:0]
		j.mu.RLock()
		for id := range j.tables {
			j.queue = append(j.queue, id)
		}
		j.mu.RUnlock()
		// In id order: neighbours share the pages of "tables".
		slices.Sort(j.queue)
	}
	chunk := j.queue[:min(len(j.queue), moveChunk)]
	j.queue = j.queue[len(chunk):]
	var moved []movedTable
	start := time.Now()
	err := s.db.Update(func(tx *bolt.Tx) (err error) {
		moved, err = s.moveChunk(tx, chunk)
		return err
	})
	s.chunkMax = max(s.chunkMax, time.Since(start))
	if err != nil {
		j.retry = time.Now().Add(s.mv.every)
		j.draining = false
		return
	}
	// The chunk read a page or more of each of its tables, and the kernel
	// mapped pages around each: weighed at the writer's next turn, or a
	// drain could map most of the file before the next check.
	s.checked = time.Time{}
	j.mu.Lock()
	j.dropMoved(moved)
	if len(j.queue) == 0 && j.n > 0 {
		j.since = j.drainAt
	}
	j.mu.Unlock()
	if len(j.queue) > 0 {
		return
	}
	j.draining = false
	s.retireWAL(j.drainFrom)
}

// moveSlab bounds the buffer a move allocates for its tables' groups at
// once (but a table's own groups): a chunk's tables (some 1.2 kB each at
// 10,000 tables) share one, and a move of a whole journal (Close) takes
// several of this size rather than one of its own size.
const moveSlab = 256 << 10

// moveChunk puts the journal's entries of the given tables into their
// logs; those of a table deleted since (gone, or another table under its
// id) are dropped. It returns what it took, for dropMoved once the
// transaction commits.
func (s *Bolt[A]) moveChunk(tx *bolt.Tx, chunk []string) ([]movedTable, error) {
	j := &s.jr
	moved := make([]movedTable, 0, len(chunk))
	j.mu.RLock()
	for _, id := range chunk {
		if p := j.tables[id]; p != nil {
			moved = append(moved, movedTable{table: id, inc: p.inc, entries: p.entries})
		}
	}
	j.mu.RUnlock()
	rest := 0 // the room of the groups of the tables not moved yet
	for _, m := range moved {
		rest += groupRoom(m.entries)
	}
	var buf []byte // the groups of several tables (moveSlab)
	var k [8]byte
	tables := tx.Bucket(bucketTables)
	for _, m := range moved {
		room := groupRoom(m.entries)
		rest -= room
		tb := tables.Bucket([]byte(m.table))
		if tb == nil || seqOf(tb) != m.inc {
			continue
		}
		lb := tb.Bucket(bucketLog)
		lb.FillPercent = 1 // numbered in order: full leaves
		if cap(buf)-len(buf) < room {
			// bbolt keeps the values it is given until the transaction
			// ends: a new buffer, never the old one written over.
			buf = make([]byte, 0, room+min(rest, moveSlab))
		}
		if err := putGroups(lb, m.entries, &buf, k[:]); err != nil {
			return nil, fmt.Errorf("table %s: %w", m.table, err)
		}
	}
	return moved, nil
}

// moveAll moves every table's entries in one of the writer's
// transactions (MoveJournal in tests, and Close).
func (s *Bolt[A]) moveAll(tx *bolt.Tx) error {
	s.jr.mu.RLock()
	ids := make([]string, 0, len(s.jr.tables))
	for id := range s.jr.tables {
		ids = append(ids, id)
	}
	s.jr.mu.RUnlock()
	slices.Sort(ids)
	moved, err := s.moveChunk(tx, ids)
	if err != nil {
		return err
	}
	s.jr.txMoved = append(s.jr.txMoved, moved...)
	return nil
}

// closeJournal moves the whole journal as the store closes, once the
// appender has stopped, and removes the log, so that a store closed
// cleanly is its bbolt file alone. If the move fails, the log stays, for
// the next Open.
func (s *Bolt[A]) closeJournal() {
	if s.jr.size() > 0 {
		err := s.db.Update(func(tx *bolt.Tx) error {
			s.jr.begin()
			return s.moveAll(tx)
		})
		if err != nil {
			s.wal.close()
			return
		}
		s.jr.committed()
	}
	_ = s.wal.remove()
}

// size is how many entries the journal holds.
func (j *journal) size() int {
	j.mu.RLock()
	defer j.mu.RUnlock()
	return j.n
}

// replayWAL moves the entries of the log's segments (what a crash left)
// into their tables' logs in bbolt, in one transaction: those not there
// already, of tables that still exist as the table that wrote them. An
// entry whose number comes again later (written again after a write that
// failed) is the later one.
func replayWAL(db *bolt.DB, dir string, segs []uint64) error {
	type tableInc struct {
		table string
		inc   uint64
	}
	logs := make(map[tableInc][]walRecord)
	var order []tableInc
	for _, n := range segs {
		err := readSegment(dir, n, func(r walRecord) error {
			k := tableInc{r.table, r.inc}
			l, ok := logs[k]
			if !ok {
				order = append(order, k)
			}
			for len(l) > 0 && l[len(l)-1].n >= r.n {
				l = l[:len(l)-1]
			}
			logs[k] = append(l, r)
			return nil
		})
		if err != nil {
			return fmt.Errorf("segment %016x: %w", n, err)
		}
	}
	if len(order) == 0 {
		return nil
	}
	return db.Update(func(tx *bolt.Tx) error {
		var key [8]byte
		var es []pendingEntry
		tables := tx.Bucket(bucketTables)
		for _, k := range order {
			tb := tables.Bucket([]byte(k.table))
			if tb == nil || seqOf(tb) != k.inc {
				continue // deleted since
			}
			es = es[:0]
			for _, r := range logs[k] {
				es = append(es, pendingEntry{n: r.n, raw: r.entry})
			}
			buf := make([]byte, 0, groupRoom(es))
			lb := tb.Bucket(bucketLog)
			lb.FillPercent = 1
			if err := putGroups(lb, es, &buf, key[:]); err != nil {
				return fmt.Errorf("table %s: %w", k.table, err)
			}
		}
		return nil
	})
}

// moveEntry puts the journal entry v (under key k) into the log lb,
// unless it is there already.
func moveEntry(lb *bolt.Bucket, k, v []byte) error {
	var n [8]byte
	return moveEntryKey(lb, k, v, n[:])
}

// moveEntryKey is moveEntry with a buffer of 8 bytes for the log's key.
func moveEntryKey(lb *bolt.Bucket, k, v, buf []byte) error {
	if v == nil {
		return fmt.Errorf("%w: journal entry %x missing", ErrCorrupt, k)
	}
	_, n, raw, err := decodeJournal(v)
	if err != nil {
		return fmt.Errorf("journal entry %x: %w", k, err)
	}
	switch seq := lb.Sequence(); {
	case n <= seq:
		return nil // moved before a crash
	case n != seq+1:
		return fmt.Errorf("%w: journal entry %x is entry %d, the log has %d", ErrCorrupt, k, n, seq)
	}
	// Cloned: raw points into the journal's pages, which a move frees.
	if err := lb.Put(binary.BigEndian.AppendUint64(buf[:0], n), bytes.Clone(raw)); err != nil {
		return err
	}
	return lb.SetSequence(n)
}

// moveJournal moves every journal entry into its table's log and empties
// the journal, in tx: at Open, for what a crash left, and in tests.
// Entries of tables deleted since are dropped.
func moveJournal(tx *bolt.Tx) error {
	jb := tx.Bucket(bucketJournal)
	tables := tx.Bucket(bucketTables)
	logs := make(map[string]*bolt.Bucket)
	c := jb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		id, _, _, err := decodeJournal(v)
		if err != nil {
			return fmt.Errorf("journal entry %x: %w", k, err)
		}
		lb, ok := logs[string(id)]
		if !ok {
			if tb := tables.Bucket(id); tb != nil {
				lb = tb.Bucket(bucketLog)
			}
			logs[string(id)] = lb
		}
		if lb == nil {
			continue
		}
		if err := moveEntry(lb, k, v); err != nil {
			return fmt.Errorf("table %s: %w", id, err)
		}
	}
	if err := tx.DeleteBucket(bucketJournal); err != nil {
		return err
	}
	_, err := tx.CreateBucket(bucketJournal)
	return err
}

// decodeJournal splits a journal value into the table id, the entry's
// number and the entry.
func decodeJournal(v []byte) (table []byte, n uint64, raw []byte, err error) {
	l, w := binary.Uvarint(v)
	if w <= 0 || l > uint64(len(v)-w) || uint64(len(v)-w)-l < 8 {
		return nil, 0, nil, fmt.Errorf("%w: journal value of %d bytes", ErrCorrupt, len(v))
	}
	v = v[w:]
	return v[:l], binary.BigEndian.Uint64(v[l : l+8]), v[l+8:], nil
}
