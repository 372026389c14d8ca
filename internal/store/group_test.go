package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// pendingOf returns entries numbered from first, entry i of size[i]
// bytes (its first byte entryVersion, then its number).
func pendingOf(first uint64, sizes ...int) []pendingEntry {
	es := make([]pendingEntry, len(sizes))
	for i, n := range sizes {
		raw := bytes.Repeat([]byte{byte(first) + byte(i)}, n)
		raw[0] = entryVersion
		es[i] = pendingEntry{n: first + uint64(i), raw: raw}
	}
	return es
}

// readAll reads a value of a log: its entries, or the error.
func readAll(v []byte) ([][]byte, error) {
	g, err := readGroup(v)
	if err != nil {
		return nil, err
	}
	var out [][]byte
	for {
		raw, err := g.next()
		if err != nil {
			return nil, err
		}
		if raw == nil {
			return out, nil
		}
		out = append(out, raw)
	}
}

// TestGroupRoundTrip: a group reads back as its entries, an entry alone
// as itself; truncated or padded groups are ErrCorrupt.
func TestGroupRoundTrip(t *testing.T) {
	for _, sizes := range [][]int{{1}, {3}, {150, 2, 300}, {200, 200, 200, 200, 200, 200, 200, 200}} {
		es := pendingOf(1, sizes...)
		v := appendGroup(nil, es)
		got, err := readAll(v)
		if err != nil {
			t.Fatalf("group of %v: %v", sizes, err)
		}
		if len(got) != len(es) {
			t.Fatalf("group of %v: %d entries", sizes, len(got))
		}
		for i := range es {
			if !bytes.Equal(got[i], es[i].raw) {
				t.Errorf("group of %v: entry %d = %x, want %x", sizes, i, got[i], es[i].raw)
			}
		}
		for cut := 1; cut < len(v); cut++ {
			if _, err := readAll(v[:cut]); !errors.Is(err, ErrCorrupt) {
				t.Fatalf("group of %v cut at %d of %d: %v, want ErrCorrupt", sizes, cut, len(v), err)
			}
		}
		if _, err := readAll(append(v, 0)); !errors.Is(err, ErrCorrupt) {
			t.Errorf("group of %v with a byte more: %v, want ErrCorrupt", sizes, err)
		}
	}
	alone := pendingOf(1, 20)[0].raw
	if got, err := readAll(alone); err != nil || len(got) != 1 || !bytes.Equal(got[0], alone) {
		t.Errorf("an entry alone reads %x, %v", got, err)
	}
	if _, err := readAll([]byte{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("an empty value: %v, want ErrCorrupt", err)
	}
}

// FuzzGroup: a value of a log that does not read is ErrCorrupt, never a
// panic; one that reads holds what it says, within its bytes.
func FuzzGroup(f *testing.F) {
	f.Add(appendGroup(nil, pendingOf(1, 3, 150, 2)))
	f.Add(pendingOf(1, 40)[0].raw)
	f.Add([]byte{groupMark})
	f.Add([]byte{groupMark, 1, 0})
	f.Add([]byte{groupMark, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, v []byte) {
		g, err := readGroup(v)
		if err != nil {
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("readGroup: %v, not ErrCorrupt", err)
			}
			return
		}
		want, total := g.count(), 0
		var got uint64
		for {
			raw, err := g.next()
			if err != nil {
				if !errors.Is(err, ErrCorrupt) {
					t.Fatalf("next: %v, not ErrCorrupt", err)
				}
				return
			}
			if raw == nil {
				break
			}
			got++
			total += len(raw)
		}
		if got != want || total > len(v) {
			t.Fatalf("%d entries of %d bytes read from %d bytes, the count said %d", got, total, len(v), want)
		}
	})
}

// logValues returns the keys and values of a table's log as putGroups
// left them in a bbolt file.
func withLog(t *testing.T, f func(lb *bolt.Bucket) error) {
	t.Helper()
	db, err := bolt.Open(filepath.Join(t.TempDir(), "g.db"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		lb, err := tx.CreateBucket(bucketLog)
		if err != nil {
			return err
		}
		return f(lb)
	}); err != nil {
		t.Fatal(err)
	}
}

// groupsOf lists lb's values as "key:count".
func groupsOf(t *testing.T, lb *bolt.Bucket) string {
	t.Helper()
	var out []string
	if err := lb.ForEach(func(k, v []byte) error {
		g, err := readGroup(v)
		if err != nil {
			return err
		}
		if g.count() > 1 && len(v) > groupMaxBytes {
			t.Errorf("group %x of %d entries takes %d bytes, over %d", k, g.count(), len(v), groupMaxBytes)
		}
		out = append(out, fmt.Sprintf("%d:%d", binary.BigEndian.Uint64(k), g.count()))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprint(out)
}

// TestPutGroups: a move puts a table's entries as groups of at most
// groupMaxEntries and about groupMaxBytes, each under its first entry's
// number; after a crash, only the entries past the log's sequence (the
// rest of a group it put before), as a group from the sequence's next.
func TestPutGroups(t *testing.T) {
	sizes := func(n, size int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = size
		}
		return s
	}
	for _, c := range []struct {
		name   string
		seq    uint64 // moved already
		first  uint64
		sizes  []int
		want   string
		wantSq uint64
	}{
		{name: "one", first: 1, sizes: []int{10}, want: "[1:1]", wantSq: 1},
		{name: "few", first: 1, sizes: sizes(4, 150), want: "[1:4]", wantSq: 4},
		{name: "by count", first: 1, sizes: sizes(150, 8), want: "[1:64 65:64 129:22]", wantSq: 150},
		// 2 + 5 × 152 = 762 bytes; a sixth would make 914.
		{name: "by bytes", first: 1, sizes: sizes(12, 150), want: "[1:5 6:5 11:2]", wantSq: 12},
		{name: "an entry over the bound", first: 1, sizes: []int{10, 5000, 10}, want: "[1:1 2:1 3:1]", wantSq: 3},
		{name: "after a crash", seq: 3, first: 1, sizes: sizes(8, 50), want: "[1:3 4:5]", wantSq: 8},
		{name: "all moved before a crash", seq: 8, first: 1, sizes: sizes(8, 50), want: "[1:8]", wantSq: 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			withLog(t, func(lb *bolt.Bucket) error {
				var k [8]byte
				es := pendingOf(c.first, c.sizes...)
				if c.seq > 0 {
					// What a move before the crash put: the first seq entries.
					buf := make([]byte, 0, groupRoom(es))
					if err := putGroups(lb, es[:c.seq], &buf, k[:]); err != nil {
						return err
					}
				}
				buf := make([]byte, 0, groupRoom(es))
				if err := putGroups(lb, es, &buf, k[:]); err != nil {
					return err
				}
				if got := groupsOf(t, lb); got != c.want {
					t.Errorf("groups %s, want %s", got, c.want)
				}
				if sq := lb.Sequence(); sq != c.wantSq {
					t.Errorf("sequence %d, want %d", sq, c.wantSq)
				}
				if len(buf) > cap(buf) {
					t.Errorf("groups of %d bytes, room for %d", len(buf), cap(buf))
				}
				return nil
			})
		})
	}
	t.Run("a gap", func(t *testing.T) {
		withLog(t, func(lb *bolt.Bucket) error {
			var k [8]byte
			var buf []byte
			if err := putGroups(lb, pendingOf(3, 10), &buf, k[:]); !errors.Is(err, ErrCorrupt) {
				t.Errorf("entry 3 into an empty log: %v, want ErrCorrupt", err)
			}
			return nil
		})
	})
}
