package store

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// The journal is where an Append lands first: one top-level bucket keyed
// by a global big-endian sequence, so that every commit appends at its
// right edge and writes one or two leaf pages however many tables it
// carries (a table's own log, nested two buckets deep, costs a leaf, the
// table's page and a page of "tables" for each table in the commit). The
// writer later moves the journal into the tables' logs in one larger
// transaction (moveJournal), where each table's pages are written once
// for all of its entries since the last move.
//
// A journal value is the table id (uvarint length, then the bytes), the
// entry's number in its table's log (big-endian, 8 bytes) and the entry
// as a log holds it. Readers add a table's journal entries after its log
// entries (entries), so that an entry reads the same before and after it
// moves. The move is one transaction, so a crash leaves every entry in
// exactly one of the two; Open moves what a crash left in the journal.
var bucketJournal = []byte("journal")

// Defaults of when the writer moves the journal: when it holds moveAt
// entries or its oldest entry is moveEvery old. Larger moves write a
// table's pages once for more of its entries; a smaller journal is
// quicker for a reader to scan.
const (
	defaultMoveEvery = 2 * time.Second
	defaultMoveAt    = 4096
)

// journal is the writer's account of the journal bucket: the last entry
// number of each table with entries there (its log's Sequence is behind
// by those), so that an Append numbers its entries without touching the
// table's buckets. Only the writer goroutine uses it. The changes of a
// transaction are kept apart (tx*) and applied only once it commits.
type journal struct {
	last  map[string]uint64
	n     int       // entries in the journal bucket
	since time.Time // when the oldest of them was committed
	retry time.Time // no move before this, after one failed

	tx      map[string]uint64 // this transaction's last numbers; 0: none in the journal
	txN     int               // entries this transaction added
	txMoved bool              // this transaction emptied the journal
}

func newJournal() journal {
	return journal{last: make(map[string]uint64), tx: make(map[string]uint64)}
}

// begin starts a transaction's account (again, after a failed attempt).
func (j *journal) begin() {
	clear(j.tx)
	j.txN = 0
	j.txMoved = false
}

// committed applies the committed transaction's account.
func (j *journal) committed(now time.Time) {
	if j.txMoved {
		clear(j.last)
		j.n = 0
	}
	for id, n := range j.tx {
		if n == 0 {
			delete(j.last, id)
		} else {
			j.last[id] = n
		}
	}
	if j.n == 0 && j.txN > 0 {
		j.since = now
	}
	j.n += j.txN
	if j.n == 0 {
		j.since = time.Time{}
	}
	j.begin()
}

// lastOf returns the number of the last entry of table, whose log bucket
// is lb: the journal's if it holds some of the table's, else the log's.
func (j *journal) lastOf(table string, lb *bolt.Bucket) uint64 {
	if n, ok := j.tx[table]; ok && n > 0 {
		return n
	} else if !ok {
		if n, ok := j.last[table]; ok {
			return n
		}
	}
	return lb.Sequence()
}

// pending reports whether the journal may hold entries of table.
func (j *journal) pending(table string) bool {
	if n, ok := j.tx[table]; ok {
		return n > 0
	}
	_, ok := j.last[table]
	return ok
}

// due reports whether the writer should move the journal now.
func (j *journal) due(now time.Time, every time.Duration, at int) bool {
	if j.n == 0 || now.Before(j.retry) {
		return false
	}
	return j.n >= at || now.Sub(j.since) >= every
}

// journalValue starts the journal value of an entry of table, with room
// for its number (setJournalNumber), which only the writer knows; the
// entry is appended to it.
func journalValue(table string) []byte {
	const room = 64 // most entries are smaller: one allocation
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
		if err := jb.Put(key(seq), v); err != nil {
			return err
		}
	}
	s.jr.tx[table] = n
	s.jr.txN += len(vals)
	return nil
}

// dropJournal deletes a table's entries from the journal (the table is
// being deleted), so that a table created later under its id does not
// inherit them.
func (s *Bolt[A]) dropJournal(tx *bolt.Tx, table string) error {
	if !s.jr.pending(table) {
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
	s.jr.tx[table] = 0
	s.jr.txN -= len(keys)
	return nil
}

// moveJournal moves every journal entry into its table's log and empties
// the journal, in tx. Entries of tables deleted since are dropped.
func (s *Bolt[A]) moveJournal(tx *bolt.Tx) error {
	if err := moveJournal(tx); err != nil {
		return err
	}
	clear(s.jr.tx)
	s.jr.txN = 0
	s.jr.txMoved = true
	return nil
}

func moveJournal(tx *bolt.Tx) error {
	jb := tx.Bucket(bucketJournal)
	tables := tx.Bucket(bucketTables)
	logs := make(map[string]*bolt.Bucket)
	c := jb.Cursor()
	for k, v := c.First(); k != nil; k, v = c.Next() {
		id, n, raw, err := decodeJournal(v)
		if err != nil {
			return fmt.Errorf("journal entry %x: %w", k, err)
		}
		lb, ok := logs[string(id)]
		if !ok {
			if tb := tables.Bucket(id); tb != nil {
				lb = tb.Bucket(bucketLog)
				if lb != nil {
					lb.FillPercent = 1 // numbered in order: full leaves
				}
			}
			logs[string(id)] = lb
		}
		if lb == nil {
			continue // deleted since
		}
		if n != lb.Sequence()+1 {
			return fmt.Errorf("%w: journal entry %x is entry %d of table %s, whose log has %d", ErrCorrupt, k, n, id, lb.Sequence())
		}
		// Cloned: raw points into the journal's pages, freed below.
		if err := lb.Put(key(n), bytes.Clone(raw)); err != nil {
			return err
		}
		if err := lb.SetSequence(n); err != nil {
			return err
		}
	}
	// Deleting the bucket frees its pages at once, cheaper than deleting
	// its keys one by one.
	if err := tx.DeleteBucket(bucketJournal); err != nil {
		return err
	}
	_, err := tx.CreateBucket(bucketJournal)
	return err
}

// move moves the journal into the tables' logs in a transaction of its
// own. A move that fails is tried again after moveEvery; the entries stay
// in the journal meanwhile, where every reader sees them.
func (s *Bolt[A]) move() {
	err := s.db.Update(func(tx *bolt.Tx) error {
		s.jr.begin()
		return s.moveJournal(tx)
	})
	now := time.Now()
	if err != nil {
		s.jr.begin()
		s.jr.retry = now.Add(s.moveEvery)
		return
	}
	s.jr.committed(now)
}

// journalEntries calls f with each journal entry of table, in order.
func journalEntries(tx *bolt.Tx, table []byte, f func(k []byte, n uint64, raw []byte) error) error {
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
		if bytes.Equal(id, table) {
			if err := f(k, n, raw); err != nil {
				return err
			}
		}
	}
	return nil
}
