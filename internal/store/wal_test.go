package store_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// lastSegment is the path of the newest segment of the log of the store
// at path.
func lastSegment(t *testing.T, path string) string {
	t.Helper()
	des, err := os.ReadDir(store.WALDir(path))
	if err != nil || len(des) == 0 {
		t.Fatalf("log of %s: %d segments, %v", path, len(des), err)
	}
	return filepath.Join(store.WALDir(path), des[len(des)-1].Name())
}

// TestWALTornTail: a crash in the middle of a commit's write leaves a
// record that does not check at the end of the log; Open keeps every
// entry before it, drops it (never acknowledged), and appends number on
// from there.
func TestWALTornTail(t *testing.T) {
	for _, tc := range []struct {
		name string
		tear func(rec []byte)
	}{
		{"a byte flipped", func(rec []byte) { rec[len(rec)/2] ^= 0x40 }},
		{"the second half unwritten", func(rec []byte) { clear(rec[len(rec)/2:]) }},
		{"the first half unwritten", func(rec []byte) { clear(rec[:len(rec)/2]) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.db")
			s := openNoMove(t, path)
			defer s.Close()
			ctx := context.Background()
			if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
				t.Fatal(err)
			}
			kept := numbered(0, 3)
			mustAppend(t, s, "t", kept...)
			before, err := os.ReadFile(lastSegment(t, path))
			if err != nil {
				t.Fatal(err)
			}
			mustAppend(t, s, "t", numbered(3, 1)...)
			crashed := filepath.Join(dir, "crashed.db")
			copyStore(t, path, crashed)
			seg := lastSegment(t, crashed)
			after, err := os.ReadFile(seg)
			if err != nil {
				t.Fatal(err)
			}
			// The last commit's record: where the two copies differ, up to
			// where they are alike again.
			from := 0
			for from < len(after) && from < len(before) && after[from] == before[from] {
				from++
			}
			to := len(after)
			for to > from && after[to-1] == before[to-1] {
				to--
			}
			if to-from < 8 {
				t.Fatalf("the last commit wrote %d bytes of the segment", to-from)
			}
			tc.tear(after[from:to])
			if err := os.WriteFile(seg, after, 0o600); err != nil {
				t.Fatal(err)
			}
			r := openNoMove(t, crashed)
			defer r.Close()
			checkReaders(t, r, "t", kept)
			next := numbered(10, 2)
			mustAppend(t, r, "t", next...)
			checkReaders(t, r, "t", append(slices.Clone(kept), next...))
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(store.WALDir(crashed)); !os.IsNotExist(err) {
				t.Errorf("the log of a store closed cleanly is still there: %v", err)
			}
			r = openNoMove(t, crashed)
			defer r.Close()
			checkReaders(t, r, "t", append(slices.Clone(kept), next...))
		})
	}
}

// TestWALDeletedTable: the entries a deleted table left in the log are
// not replayed into a table created again under its id, whose entries
// have the same numbers, nor into nothing.
func TestWALDeletedTable(t *testing.T) {
	for _, how := range []string{"Delete", "Prune", "Delete after a move"} {
		t.Run(how, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "a.db")
			s := openNoMove(t, path)
			defer s.Close()
			ctx := context.Background()
			for _, id := range []string{"t", "u"} {
				if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
					t.Fatal(err)
				}
			}
			mustAppend(t, s, "t", numbered(0, 3)...)
			mustAppend(t, s, "u", numbered(10, 2)...)
			switch how {
			case "Delete after a move":
				if err := store.MoveTables(s, "t"); err != nil {
					t.Fatal(err)
				}
				fallthrough
			case "Delete":
				if err := s.Delete(ctx, "t"); err != nil {
					t.Fatal(err)
				}
			case "Prune":
				if err := s.Finish(ctx, "t", t0); err != nil {
					t.Fatal(err)
				}
				if n, err := s.Prune(ctx, t0.Add(1)); err != nil || n != 1 {
					t.Fatalf("Prune = %d, %v; want 1 table", n, err)
				}
			}
			gone := filepath.Join(dir, "gone.db")
			copyStore(t, path, gone)
			if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
				t.Fatal(err)
			}
			again := numbered(40, 1)
			mustAppend(t, s, "t", again...)
			again2 := filepath.Join(dir, "again.db")
			copyStore(t, path, again2)

			r := openNoMove(t, gone)
			if _, _, _, err := r.LoadTable(ctx, "t"); err == nil {
				t.Errorf("t is back after a crash that followed its %s", how)
			}
			checkReaders(t, r, "u", numbered(10, 2))
			r.Close()
			r = openNoMove(t, again2)
			defer r.Close()
			checkReaders(t, r, "t", again)
			checkReaders(t, r, "u", numbered(10, 2))
		})
	}
}

// TestOpenOldJournal: a file an older build left with entries in its
// journal bucket (a crash before it moved them) opens with them in their
// tables' logs, the bucket emptied; entries already moved, and those of
// tables deleted, are not doubled nor resurrected.
func TestOpenOldJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := openNoMove(t, path)
	ctx := context.Background()
	if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	first := numbered(0, 2)
	mustAppend(t, s, "t", first...)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	more := numbered(2, 2)
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		jb := tx.Bucket([]byte("journal"))
		vals := [][]byte{
			store.JournalValue("t", 2, store.EncodeEntry(moveCodec{}, first[1])), // moved already
			store.JournalValue("t", 3, store.EncodeEntry(moveCodec{}, more[0])),
			store.JournalValue("gone", 1, store.EncodeEntry(moveCodec{}, more[0])),
			store.JournalValue("t", 4, store.EncodeEntry(moveCodec{}, more[1])),
		}
		for i, v := range vals {
			if err := jb.Put([]byte{0, 0, 0, 0, 0, 0, 0, byte(i + 1)}, v); err != nil {
				return err
			}
		}
		return nil
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	s = openNoMove(t, path)
	defer s.Close()
	checkReaders(t, s, "t", append(slices.Clone(first), more...))
	db2 := store.DB(s)
	err = db2.View(func(tx *bolt.Tx) error {
		if k, _ := tx.Bucket([]byte("journal")).Cursor().First(); k != nil {
			t.Errorf("the journal bucket holds %x after Open", bytes.Clone(k))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
