package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The write-ahead log is where an Append is made durable: a directory
// beside the bbolt file (its path and ".wal") of segment files, each
// named by its number (16 hex digits, then ".log"). A group commit of
// appends is one write at the end of the current segment and one
// fdatasync; the writer keeps the entries in memory (journal.go) and
// later moves them into the tables' logs in bbolt. A segment is retired
// once every entry in it is in bbolt (a drain of the journal that started
// after it was written), and reused as a later segment: segments are
// written full of zeros when they are made, so that an fdatasync writes
// the data and never the file's size or block map.
//
// A record is a header of 8 bytes, the Castagnoli CRC-32 (little-endian)
// and the length of its payload (little-endian, 4 bytes), then the
// payload: the table's creation sequence (uvarint, its incarnation: a
// table deleted and created again under its id has another), the table
// id (uvarint length, then the bytes), the entry's number in the table's
// log (uvarint) and the entry as a log holds it. The CRC covers the
// segment's number (8 bytes, little-endian), the length and the payload,
// so that the records a reused segment held before read as its end, as
// do zeros and a record torn by a crash: a segment ends at the first
// record that does not check.
type wal struct {
	dir     string
	segSize int64
	f       *os.File // the current segment
	num     uint64   // its number
	off     int64    // where the next write goes in it
	live    []uint64 // the segments not retired before the current, oldest first
	spares  []string // retired segment files, to reuse
	broken  bool     // the last write failed: the next starts a segment

	buf  []byte // the records of the commit being built
	recs []int  // where each starts in buf
}

// walSegment is the size segments are made at (a commit that does not
// fit in what is left of one starts the next; one larger than a segment
// makes it grow). walSpares is how many retired segments are kept for
// reuse.
const (
	walSegment = 8 << 20
	walSpares  = 2
	walHeader  = 8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// walDir is the log's directory for the store at path.
func walDir(path string) string { return path + ".wal" }

func segPath(dir string, n uint64) string {
	return filepath.Join(dir, fmt.Sprintf("%016x.log", n))
}

// walSegments lists the numbers of the segments in dir, in order; none if
// dir does not exist.
func walSegments(dir string) ([]uint64, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var nums []uint64
	for _, de := range des {
		name, ok := strings.CutSuffix(de.Name(), ".log")
		if !ok {
			continue
		}
		n, err := strconv.ParseUint(name, 16, 64)
		if err != nil {
			continue
		}
		nums = append(nums, n)
	}
	slices.Sort(nums)
	return nums, nil
}

// walRecord is one record read back.
type walRecord struct {
	inc   uint64
	table string
	n     uint64
	entry []byte
}

// readSegment calls f with every record of segment n in dir, in order,
// up to the first that does not check (its end, or a torn write).
func readSegment(dir string, n uint64, f func(walRecord) error) error {
	raw, err := os.ReadFile(segPath(dir, n))
	if err != nil {
		return err
	}
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], n)
	for len(raw) >= walHeader {
		sum := binary.LittleEndian.Uint32(raw)
		size := binary.LittleEndian.Uint32(raw[4:])
		if size == 0 || uint64(size) > uint64(len(raw)-walHeader) {
			return nil
		}
		c := crc32.Update(0, castagnoli, seed[:])
		c = crc32.Update(c, castagnoli, raw[4:walHeader+size])
		if c != sum {
			return nil
		}
		r, ok := decodeRecord(raw[walHeader : walHeader+size])
		if !ok {
			return fmt.Errorf("%w: segment %016x: a record that checks does not decode", ErrCorrupt, n)
		}
		if err := f(r); err != nil {
			return err
		}
		raw = raw[walHeader+size:]
	}
	return nil
}

func decodeRecord(p []byte) (walRecord, bool) {
	var r walRecord
	inc, w := binary.Uvarint(p)
	if w <= 0 {
		return r, false
	}
	p = p[w:]
	l, w := binary.Uvarint(p)
	if w <= 0 || l > uint64(len(p)-w) {
		return r, false
	}
	r.table = string(p[w : w+int(l)])
	p = p[w+int(l):]
	n, w := binary.Uvarint(p)
	if w <= 0 {
		return r, false
	}
	r.inc, r.n, r.entry = inc, n, p[w:]
	return r, true
}

// openWAL opens the log in dir after its segments (old) were replayed:
// they are retired, and a new segment after them is the current one.
func openWAL(dir string, old []uint64, segSize int64) (*wal, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	// The directory's own name is durable before any record in it.
	if err := syncDir(filepath.Dir(dir)); err != nil {
		return nil, err
	}
	w := &wal{dir: dir, segSize: segSize, live: old}
	next := uint64(1)
	if len(old) > 0 {
		next = old[len(old)-1] + 1
	}
	w.retire(next)
	if err := w.start(next); err != nil {
		return nil, err
	}
	return w, nil
}

// start makes segment n the current one: a spare renamed, or a new file
// of zeros, durable with its name before any record goes into it (a
// record written under the number of a name lost in a crash would not
// check).
func (w *wal) start(n uint64) error {
	path := segPath(w.dir, n)
	if len(w.spares) > 0 {
		spare := w.spares[len(w.spares)-1]
		w.spares = w.spares[:len(w.spares)-1]
		if err := os.Rename(spare, path); err != nil {
			return fmt.Errorf("wal: reuse %s: %w", spare, err)
		}
	} else if err := zeroFile(path, w.segSize); err != nil {
		return fmt.Errorf("wal: new segment: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return fmt.Errorf("wal: %w", err)
	}
	if err := syncDir(w.dir); err != nil {
		f.Close()
		return fmt.Errorf("wal: %w", err)
	}
	w.f, w.num, w.off, w.broken = f, n, 0, false
	return nil
}

// zeroFile writes a file of size zeros, durably, or none (a full disk:
// the next try starts again).
func zeroFile(path string, size int64) (err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
		}
	}()
	zeros := make([]byte, min(size, 1<<20))
	for left := size; left > 0; left -= int64(len(zeros)) {
		if _, err := f.Write(zeros[:min(left, int64(len(zeros)))]); err != nil {
			return err
		}
	}
	return f.Sync()
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// add adds a record to the commit being built.
func (w *wal) add(inc uint64, table string, n uint64, entry []byte) {
	w.recs = append(w.recs, len(w.buf))
	w.buf = append(w.buf, 0, 0, 0, 0, 0, 0, 0, 0)
	w.buf = binary.AppendUvarint(w.buf, inc)
	w.buf = binary.AppendUvarint(w.buf, uint64(len(table)))
	w.buf = append(w.buf, table...)
	w.buf = binary.AppendUvarint(w.buf, n)
	w.buf = append(w.buf, entry...)
}

// pending reports whether records wait for a flush.
func (w *wal) pending() bool { return len(w.recs) > 0 }

// flush writes the records built since the last flush at the end of the
// current segment (starting the next if they do not fit) and fdatasyncs
// it. Whatever it returns, they are gone from the buffer: on an error
// none is acknowledged, and the next flush goes to a new segment, so
// that it never writes after bytes that may or may not be on disk.
func (w *wal) flush() error {
	defer func() { w.buf, w.recs = w.buf[:0], w.recs[:0] }()
	if len(w.recs) == 0 {
		return nil
	}
	if w.broken || w.f == nil || w.off > 0 && w.off+int64(len(w.buf)) > w.segSize {
		if err := w.rotate(); err != nil {
			return err
		}
	}
	var seed [8]byte
	binary.LittleEndian.PutUint64(seed[:], w.num)
	for i, at := range w.recs {
		end := len(w.buf)
		if i+1 < len(w.recs) {
			end = w.recs[i+1]
		}
		rec := w.buf[at:end]
		binary.LittleEndian.PutUint32(rec[4:], uint32(len(rec)-walHeader))
		c := crc32.Update(0, castagnoli, seed[:])
		binary.LittleEndian.PutUint32(rec, crc32.Update(c, castagnoli, rec[4:]))
	}
	if _, err := w.f.WriteAt(w.buf, w.off); err != nil {
		w.broken = true
		return fmt.Errorf("wal: write: %w", err)
	}
	if err := fdatasync(w.f); err != nil {
		w.broken = true
		return fmt.Errorf("wal: sync: %w", err)
	}
	w.off += int64(len(w.buf))
	return nil
}

// rotate starts the next segment; the current one stays live until
// retired. A segment nothing was written to is just left behind.
func (w *wal) rotate() error {
	if w.f != nil {
		w.f.Close()
		w.f = nil
		w.live = append(w.live, w.num)
	}
	return w.start(w.num + 1)
}

// retire gives up the segments numbered before n, whose every entry is
// in bbolt: kept as spares up to walSpares, removed beyond.
func (w *wal) retire(n uint64) {
	for len(w.live) > 0 && w.live[0] < n {
		path := segPath(w.dir, w.live[0])
		w.live = w.live[1:]
		if len(w.spares) < walSpares {
			w.spares = append(w.spares, path)
		} else {
			_ = os.Remove(path) // left, it is read again (and skipped) at the next Open
		}
	}
}

// remove closes the log and removes its files: every entry is in bbolt.
func (w *wal) remove() error {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
	return os.RemoveAll(w.dir)
}

// close closes the log and leaves its files, to be replayed at the next
// Open.
func (w *wal) close() {
	if w.f != nil {
		w.f.Close()
		w.f = nil
	}
}
