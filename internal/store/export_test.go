package store

import (
	"context"
	"encoding/binary"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
)

// EncodeEntry exposes the entry encoding, without AppendEntry's limits,
// to the fuzz test.
func EncodeEntry[A any](c Codec[A], e host.Entry[A]) []byte { return appendEntry(nil, c, &e) }

// PageWrites is how many page writes the store's transactions have made
// (bbolt's TxStats.Write: one per page, one per meta page).
func PageWrites[A any](s *Bolt[A]) int64 {
	st := s.db.Stats()
	return st.TxStats.GetWrite()
}

// WithJournalMove sets when the writer moves the journal into the
// tables' logs: every d, or once it holds n entries, however many tables
// they are of.
func WithJournalMove(d time.Duration, n int) Option {
	return func(op *options) { op.mv = movePolicy{every: d, at: n, max: n} }
}

// MoveJournal has the writer move the journal now, in a transaction of
// its own, and returns once that is durable.
func MoveJournal[A any](s *Bolt[A]) error {
	return s.do(context.Background(), s.moveAll)
}

// JournalLen is how many entries the journal holds, not yet moved into
// the tables' logs.
func JournalLen[A any](s *Bolt[A]) int {
	s.jr.mu.RLock()
	defer s.jr.mu.RUnlock()
	n := 0
	for _, p := range s.jr.tables {
		n += len(p.entries)
	}
	return n
}

// MoveTables moves the journal entries of the given tables into their
// logs and leaves them in the journal and the log too, as a crash between
// two chunks of a move leaves them (the writer's account is not told).
func MoveTables[A any](s *Bolt[A], ids ...string) error {
	return s.do(context.Background(), func(tx *bolt.Tx) error {
		_, err := s.moveChunk(tx, ids)
		return err
	})
}

// WALDir is the directory of the write-ahead log of the store at path.
var WALDir = walDir

// JournalValue builds a value of the journal bucket as an older build
// did, for tests of files it left.
func JournalValue(table string, n uint64, raw []byte) []byte {
	v := append(journalValue(table, len(raw)), raw...)
	setJournalNumber(v, len(table), n)
	return v
}

// DecodeJournal exposes the journal value's decoding to the fuzz test.
var DecodeJournal = decodeJournal

// WithDropEvery sets how often the writer drops the file's mapped pages
// from the resident set (0: after every commit).
func WithDropEvery(d time.Duration) Option { return func(op *options) { op.dropEvery = d } }

// DB is the store's bbolt file, for tests that read it.
func DB[A any](s *Bolt[A]) *bolt.DB { return s.db }

// WithSegmentSize sets the size of the log's segments, so that tests
// start, retire and reuse many.
func WithSegmentSize(n int64) Option { return func(op *options) { op.segSize = n } }

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

// MoveChunkMax is how long the longest chunk of a move (its bbolt
// transaction, commit and all) took, what a Create or a snapshot may wait
// behind; read it once the store is closed.
func MoveChunkMax[A any](s *Bolt[A]) time.Duration { return s.chunkMax }

// GroupValue is the value of a table's log that holds the given entry
// encodings as one group, as a move writes it.
func GroupValue(raws ...[]byte) []byte {
	es := make([]pendingEntry, len(raws))
	for i, raw := range raws {
		es[i] = pendingEntry{n: uint64(i + 1), raw: raw}
	}
	return appendGroup(nil, es)
}
