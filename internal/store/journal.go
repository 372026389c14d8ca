package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The journal is where an Append lands first: one top-level bucket keyed
// by a global big-endian sequence, so that every commit appends at its
// right edge and writes one or two leaf pages however many tables it
// carries (a table's own log, nested two buckets deep, costs a leaf, its
// branch, the table's page and a page of "tables" for each table in the
// commit). The writer later moves the entries into the tables' logs,
// moveChunk tables a transaction, each table's entries since the last
// move at once, so that a table's pages are written once for several of
// its entries and a move holds the writer only briefly.
//
// A journal value is the table id (uvarint length, then the bytes), the
// entry's number in its table's log (big-endian, 8 bytes) and the entry
// as a log holds it. An entry whose number is not past its log's last is
// moved already: readers skip it, and add the others after the log's
// (entries), so that an entry reads the same before and after it moves.
// The journal is emptied (its bucket deleted, freeing its pages at once)
// when the last of its tables is moved. Each move is one transaction, so
// a crash leaves every entry in the log, the journal or both, and the
// numbers tell which; Open moves what a crash left.
var bucketJournal = []byte("journal")

// When the writer moves the journal (movePolicy): it moves every table's
// entries, moveChunk tables a transaction between commits. Longer waits
// give a table more entries to move at once; a shorter journal is
// quicker for a reader to scan (readers scan it whole: a millisecond or
// two at 8,192 entries, see BenchmarkLoadEntriesFullJournal). A move
// writes two or three pages of each table whatever it moves, so at human
// pace it is the wait that pays (BenchmarkHumanPace at 300 appends a
// second for 40 s: 20% fewer bytes written per append with 30 s than
// with 10 s). How long a wait pays depends on the tables: 8,192 entries
// are eight a table at 1,000 tables and less than one at 10,000, where
// a move wrote three pages for each entry and took 40% of the store's
// CPU (BenchmarkScalePace). So the journal waits for a few entries a
// table on average, up to a bound on its length.
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

// defaultMove: 8,192 entries bound the journal at up to 2,048 tables, as
// before tables counted; from there on it holds four entries a table, up
// to 65,536 (a scan of ten milliseconds or so for a reader of one table,
// BenchmarkLoadEntriesFullJournal). A store too quiet to gather that many
// moves every two minutes, so that its journal does not linger for ever.
var defaultMove = movePolicy{every: 2 * time.Minute, at: 8 << 10, perTable: 4, max: 64 << 10}

// pending is what the journal holds of one table that is not moved yet.
type pending struct {
	last uint64   // the number of its last entry
	keys []uint64 // the journal keys of its entries not moved, in order
}

// journal is the writer's account of the journal bucket, so that an
// Append numbers its entries without reading the table's log and a move
// finds a table's entries without scanning. Only the writer goroutine
// uses it. A transaction's changes are kept apart (tx*) and applied only
// once it commits.
type journal struct {
	tables   map[string]*pending // tables with entries not moved
	lasts    map[string]uint64   // the last entry's number of the tables appended to since Open, until they finish
	present  map[string]bool     // tables with entries in the journal, moved or not
	n        int                 // entries in the journal bucket
	since    time.Time           // when its oldest was committed
	draining bool                // moving every table, chunk by chunk
	queue    []string            // tables left to move in this drain, sorted
	retry    time.Time           // no move before this, after one failed

	key [8]byte // a key being built, for bbolt calls that copy it

	txLast  map[string]uint64 // this transaction's last numbers; 0: dropped
	txOps   []journalOp
	txMoved bool // this transaction emptied the journal
}

// journalOp is one change of a transaction to the account: an entry
// appended (key > 0), a table's entries dropped (key 0) or a table
// forgotten (forget: finished or deleted).
type journalOp struct {
	table   string
	n, key  uint64
	dropped int
	forget  bool
}

func newJournal() journal {
	return journal{tables: make(map[string]*pending), lasts: make(map[string]uint64), present: make(map[string]bool), txLast: make(map[string]uint64)}
}

// begin starts a transaction's account (again, after a failed attempt).
func (j *journal) begin() {
	clear(j.txLast)
	clear(j.txOps)
	j.txOps = j.txOps[:0]
	j.txMoved = false
}

// committed applies the committed transaction's account.
func (j *journal) committed(now time.Time) {
	if j.txMoved {
		j.emptied()
	}
	for _, op := range j.txOps {
		if op.forget {
			delete(j.lasts, op.table)
			continue
		}
		if op.key == 0 {
			delete(j.tables, op.table)
			delete(j.present, op.table)
			j.n -= op.dropped
			continue
		}
		p := j.tables[op.table]
		if p == nil {
			p = &pending{}
			j.tables[op.table] = p
		}
		p.last = op.n
		p.keys = append(p.keys, op.key)
		j.lasts[op.table] = op.n
		j.present[op.table] = true
		if j.n == 0 {
			j.since = now
		}
		j.n++
	}
	j.begin()
}

// emptied forgets everything: the journal bucket is empty.
func (j *journal) emptied() {
	clear(j.tables)
	clear(j.present)
	j.n = 0
	j.since = time.Time{}
	j.draining = false
	j.queue = j.queue[:0]
}

// knows reports whether the writer knows the number of table's last
// entry, as of the transaction under way: it appended to the table since
// Open, and the table has not finished nor been deleted since. Then the
// table exists and lastOf needs no log, so that an append reads no page
// of the table (a search through "tables" and the table's own page).
func (j *journal) knows(table string) bool {
	if n, ok := j.txLast[table]; ok {
		return n > 0
	}
	_, ok := j.lasts[table]
	return ok
}

// forget has the writer look table up again at its next append after
// this transaction: it finished (few append after, and the account would
// keep it for ever) or is deleted (and then, in this transaction too: a
// table created again under its id starts a log of its own).
func (j *journal) forget(table string, deleted bool) {
	if deleted {
		j.txLast[table] = 0
	}
	j.txOps = append(j.txOps, journalOp{table: table, forget: true})
}

// lastOf returns the number of the last entry of table, whose log bucket
// is lb: the one the writer knows, else the journal's if it holds some
// not moved, else the log's (lb may be nil if knows(table)).
func (j *journal) lastOf(table string, lb *bolt.Bucket) uint64 {
	if n, ok := j.txLast[table]; ok {
		if n > 0 {
			return n
		}
	} else if n, ok := j.lasts[table]; ok {
		return n
	} else if p := j.tables[table]; p != nil {
		return p.last
	}
	return lb.Sequence()
}

// due reports whether the writer should move a chunk now.
func (j *journal) due(now time.Time, p movePolicy) bool {
	if j.n == 0 || now.Before(j.retry) {
		return false
	}
	return j.draining || j.n >= p.max || now.Sub(j.since) >= p.every ||
		j.n >= p.at && j.n >= p.perTable*len(j.tables)
}

// journalValue starts the journal value of an entry of table, with room
// for its number (setJournalNumber), which only the writer knows; the
// entry is appended to it.
func journalValue(table string, room int) []byte {
	v := make([]byte, 0, binary.MaxVarintLen64+len(table)+8+room)
	v = binary.AppendUvarint(v, uint64(len(table)))
	v = append(v, table...)
	return append(v, 0, 0, 0, 0, 0, 0, 0, 0)
}

// setJournalNumber writes n as the entry's number into a value built by
// journalValue for a table of the given id length.
func setJournalNumber(v []byte, idLen int, n uint64) {
	at := uvarintLen(uint64(idLen)) + idLen
	binary.BigEndian.PutUint64(v[at:at+8], n)
}

func uvarintLen(x uint64) int {
	n := 1
	for ; x >= 0x80; x >>= 7 {
		n++
	}
	return n
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

// appendJournal puts a table's entries (built by journalValue) into the
// journal, numbered after its last entry.
func (s *Bolt[A]) appendJournal(tx *bolt.Tx, table string, lb *bolt.Bucket, vals [][]byte) error {
	jb := tx.Bucket(bucketJournal)
	jb.FillPercent = 1 // keys only ever grow: full leaves
	n := s.jr.lastOf(table, lb)
	for _, v := range vals {
		seq, err := jb.NextSequence()
		if err != nil {
			return err
		}
		n++
		setJournalNumber(v, len(table), n)
		// Put copies the key: the writer's buffer serves every append.
		if err := jb.Put(binary.BigEndian.AppendUint64(s.jr.key[:0], seq), v); err != nil {
			return err
		}
		s.jr.txOps = append(s.jr.txOps, journalOp{table: table, n: n, key: seq})
	}
	s.jr.txLast[table] = n
	return nil
}

// dropJournal deletes a table's entries from the journal (the table is
// being deleted), so that a table created later under its id does not
// inherit them.
func (s *Bolt[A]) dropJournal(tx *bolt.Tx, table string) error {
	if _, ok := s.jr.txLast[table]; !ok && !s.jr.present[table] {
		return nil
	}
	jb := tx.Bucket(bucketJournal)
	var keys [][]byte
	c := jb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		if id, _, _, err := decodeJournal(v); err == nil && string(id) == table {
			keys = append(keys, bytes.Clone(k))
		}
	}
	for _, k := range keys {
		if err := jb.Delete(k); err != nil {
			return err
		}
	}
	s.jr.txOps = append(s.jr.txOps, journalOp{table: table, dropped: len(keys)})
	s.jr.txLast[table] = 0
	return nil
}

// move moves the next chunk of tables in a transaction of its own,
// starting a drain of every table if none is under way. A move that
// fails is tried again after movePolicy.every; the entries stay in the journal
// meanwhile, where every reader sees them.
func (s *Bolt[A]) move() {
	j := &s.jr
	if !j.draining || len(j.queue) == 0 {
		j.draining = true
		j.queue = j.queue[:0]
		for id := range j.tables {
			j.queue = append(j.queue, id)
		}
		// In id order: neighbours share the pages of "tables".
		slices.Sort(j.queue)
	}
	var chunk []string
	for len(j.queue) > 0 && len(chunk) < moveChunk {
		id := j.queue[0]
		j.queue = j.queue[1:]
		if j.tables[id] != nil {
			chunk = append(chunk, id)
		}
	}
	last := len(chunk) == len(j.tables)
	err := s.db.Update(func(tx *bolt.Tx) error { return s.moveChunk(tx, chunk, last) })
	if err != nil {
		j.retry = time.Now().Add(s.mv.every)
		j.draining = false
		return
	}
	// The chunk read a page or more of each of its tables, and the kernel
	// mapped pages around each: weighed at the writer's next turn, or a
	// drain could map most of the file before the next check.
	s.checked = time.Time{}
	if last {
		j.emptied()
		return
	}
	for _, id := range chunk {
		delete(j.tables, id)
	}
}

// moveChunk moves the journal entries of the given tables into their
// logs and, if they are the last not moved, empties the journal.
func (s *Bolt[A]) moveChunk(tx *bolt.Tx, chunk []string, last bool) error {
	// One cursor for every entry, in a buffer it keeps (a Get makes a
	// cursor each time); one key buffer (Put copies its key).
	jc := tx.Bucket(bucketJournal).Cursor()
	var k, n [8]byte
	tables := tx.Bucket(bucketTables)
	for _, id := range chunk {
		tb := tables.Bucket([]byte(id))
		if tb == nil {
			continue // deleted since (its entries dropped with it)
		}
		lb := tb.Bucket(bucketLog)
		lb.FillPercent = 1 // numbered in order: full leaves
		for _, seq := range s.jr.tables[id].keys {
			binary.BigEndian.PutUint64(k[:], seq)
			var v []byte
			if got, val := jc.Seek(k[:]); bytes.Equal(got, k[:]) {
				v = val
			}
			if err := moveEntryKey(lb, k[:], v, n[:]); err != nil {
				return fmt.Errorf("table %s: %w", id, err)
			}
		}
	}
	if !last {
		return nil
	}
	if err := tx.DeleteBucket(bucketJournal); err != nil {
		return err
	}
	_, err := tx.CreateBucket(bucketJournal)
	return err
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

// moveAll is moveJournal in one of the writer's transactions.
func (s *Bolt[A]) moveAll(tx *bolt.Tx) error {
	if err := moveJournal(tx); err != nil {
		return err
	}
	clear(s.jr.txLast)
	clear(s.jr.txOps)
	s.jr.txOps = s.jr.txOps[:0]
	s.jr.txMoved = true
	return nil
}

// journalIndex maps a table id to its journal entries, in order, for
// readers of many tables in one transaction (only valid in it).
type journalIndex map[string][]journalRef

type journalRef struct {
	key, raw []byte
	n        uint64
}

// indexJournal reads the journal of tx into an index, nil if it is empty.
func indexJournal(tx *bolt.Tx) (journalIndex, error) {
	jb := tx.Bucket(bucketJournal)
	if jb == nil {
		return nil, nil
	}
	var idx journalIndex
	c := jb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		id, n, raw, err := decodeJournal(v)
		if err != nil {
			return nil, fmt.Errorf("journal entry %x: %w", k, err)
		}
		if idx == nil {
			idx = make(journalIndex)
		}
		idx[string(id)] = append(idx[string(id)], journalRef{key: k, raw: raw, n: n})
	}
	return idx, nil
}

// journalEntries calls f with each journal entry of table in tx, in
// order: from idx if it is not nil, else by a scan of the journal.
func journalEntries(tx *bolt.Tx, idx journalIndex, table string, f func(k []byte, n uint64, raw []byte) error) error {
	if idx != nil {
		for _, r := range idx[table] {
			if err := f(r.key, r.n, r.raw); err != nil {
				return err
			}
		}
		return nil
	}
	jb := tx.Bucket(bucketJournal)
	if jb == nil {
		return nil
	}
	c := jb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		id, n, raw, err := decodeJournal(v)
		if err != nil {
			return fmt.Errorf("journal entry %x: %w", k, err)
		}
		if string(id) == table {
			if err := f(k, n, raw); err != nil {
				return err
			}
		}
	}
	return nil
}

// closeJournal moves the whole journal as the store closes, so that a
// file closed cleanly has an empty journal.
func (s *Bolt[A]) closeJournal() {
	if s.jr.n == 0 {
		return
	}
	err := s.db.Update(func(tx *bolt.Tx) error {
		s.jr.begin()
		return s.moveAll(tx)
	})
	if err == nil {
		s.jr.committed(time.Now())
	}
}
