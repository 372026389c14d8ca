package store

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// A table's log in bbolt holds its entries under the number of the
// first, big-endian, in values of two kinds:
//
//   - an entry alone (its encoding, which starts with entryVersion): what
//     every build wrote before groups, and what a file of one still holds;
//   - a group of consecutive entries: groupMark, the number of entries
//     (a uvarint), then each entry's length (a uvarint) and encoding.
//
// A move writes each table's entries as groups, so that the last leaf of
// a table's log holds a few values rather than one per entry: bbolt
// materializes every value of a leaf it writes (an inode each), and a
// move per entry was the largest share of the server's allocations at
// 10,000 tables. Readers take both kinds, in any mix.
//
// groupMark is no entry's first byte (entryVersion is; a later layout
// takes the next number, far from this one).
const groupMark = 0x80

// A group holds at most groupMaxEntries entries and, unless it holds one,
// at most groupMaxBytes bytes in all (its value, counting two bytes for
// each entry's length and two for the group's mark and count): a fifth of
// a 4 KiB page. bbolt never splits a leaf of four values or fewer,
// however large (and a node larger than a page is written as several, in
// a buffer allocated for it), and a move rewrites each table's last leaf:
// with values of up to a page, that leaf held four of them, some 5 to
// 16 kB written at every move (BenchmarkScalePace wrote 5.3 kB an append
// rather than 3.7). Values of a fifth of a page split as single entries
// did, into leaves of a page, so a move rewrites what it did before
// (half a page on average, and its new values), with a fifth as many
// values to materialize; and a reader asking for entries from k decodes
// at most one small group before k.
const (
	groupMaxEntries = 64
	groupMaxBytes   = 768
)

// groupRoom is room enough for the groups of entries, however putGroups
// splits them: each entry, its length (two bytes: entries are under
// 16 kB) and, at worst, a group's mark and count of its own.
func groupRoom(entries []pendingEntry) int {
	n := 0
	for _, e := range entries {
		n += 4 + len(e.raw)
	}
	return n
}

// appendGroup appends the group of entries to dst.
func appendGroup(dst []byte, entries []pendingEntry) []byte {
	dst = append(dst, groupMark)
	dst = binary.AppendUvarint(dst, uint64(len(entries)))
	for _, e := range entries {
		dst = appendBytes(dst, e.raw)
	}
	return dst
}

// groupReader steps through the entries of a value of a table's log, a
// group or an entry alone.
type groupReader struct {
	b     []byte
	left  uint64 // entries still to read
	alone bool   // b is one entry, not a group
}

// readGroup starts reading the value v of a log: one entry (v itself) or
// the entries of a group. It checks the group's count only; next checks
// the rest as it goes.
func readGroup(v []byte) (groupReader, error) {
	if len(v) == 0 || v[0] != groupMark {
		return groupReader{b: v, left: 1, alone: true}, nil
	}
	n, w := binary.Uvarint(v[1:])
	// Every entry takes two bytes at least: its length and a byte.
	if w <= 0 || n == 0 || n > uint64(len(v)-1-w)/2 {
		return groupReader{}, fmt.Errorf("%w: group of %d bytes, its count unreadable", ErrCorrupt, len(v))
	}
	return groupReader{b: v[1+w:], left: n}, nil
}

// count is how many entries are left to read: all of the value's before
// the first next.
func (g *groupReader) count() uint64 { return g.left }

// next returns the next entry's encoding; nil, nil once there is none.
func (g *groupReader) next() ([]byte, error) {
	switch {
	case g.left == 0 && len(g.b) > 0:
		return nil, fmt.Errorf("%w: %d bytes after a group's entries", ErrCorrupt, len(g.b))
	case g.left == 0:
		return nil, nil
	case g.alone:
		v := g.b
		g.b, g.left = nil, 0
		if len(v) == 0 {
			return nil, fmt.Errorf("%w: empty value", ErrCorrupt)
		}
		return v, nil
	}
	g.left--
	l, w := binary.Uvarint(g.b)
	if w <= 0 || l == 0 || l > uint64(len(g.b)-w) {
		return nil, fmt.Errorf("%w: group entry of %d bytes in %d", ErrCorrupt, l, len(g.b))
	}
	end := w + int(l)
	v := g.b[w:end:end]
	g.b = g.b[end:]
	return v, nil
}

// putGroups puts entries (consecutive, numbered in order) into the log
// lb as groups (groupMaxEntries, groupMaxBytes), but those there already
// (moved before a crash: numbered up to the log's sequence), so that the
// first group starts at the sequence's next. The groups are appended to
// *buf, one allocation for many tables when it has room for them
// (groupRoom): bbolt keeps the values it is given, not copies, until the
// transaction ends, so a value is never written over (a buf that grows
// leaves the values put before in its old array). key is 8 bytes for the
// keys, which bbolt copies.
func putGroups(lb *bolt.Bucket, entries []pendingEntry, buf *[]byte, key []byte) error {
	seq := lb.Sequence()
	for len(entries) > 0 && entries[0].n <= seq {
		entries = entries[1:] // moved before a crash
	}
	if len(entries) == 0 {
		return nil
	}
	for i, e := range entries {
		if e.n != seq+1+uint64(i) {
			return fmt.Errorf("%w: entry %d after the log's %d", ErrCorrupt, e.n, seq+uint64(i))
		}
	}
	last := entries[len(entries)-1].n
	for len(entries) > 0 {
		k, size := 1, 2+2+len(entries[0].raw)
		for k < len(entries) && k < groupMaxEntries && size+2+len(entries[k].raw) <= groupMaxBytes {
			size += 2 + len(entries[k].raw)
			k++
		}
		start := len(*buf)
		*buf = appendGroup(*buf, entries[:k])
		v := (*buf)[start:len(*buf):len(*buf)]
		if err := lb.Put(binary.BigEndian.AppendUint64(key[:0], entries[0].n), v); err != nil {
			return err
		}
		entries = entries[k:]
	}
	return lb.SetSequence(last)
}
