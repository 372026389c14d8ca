package store_test

import (
	"context"
	"encoding/binary"
	"fmt"
	"path/filepath"
	"testing"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// TestLogFormats: a table's log that holds entries alone (every value a
// build before groups wrote) and groups, mixed, reads as its entries
// from every point, before and after more entries move in as a group.
func TestLogFormats(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	if err := s.Create(context.Background(), host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	want := numbered(0, 40)
	// Entries 1-3 alone, 4-10 a group, 11 alone, 12-20 a group, 21 alone.
	layout := []struct{ first, n int }{{1, 1}, {2, 1}, {3, 1}, {4, 7}, {11, 1}, {12, 9}, {21, 1}}
	editLog(t, path, "t", func(lb *bolt.Bucket) error {
		for _, l := range layout {
			var raws [][]byte
			for i := range l.n {
				raws = append(raws, store.EncodeEntry(moveCodec{}, want[l.first-1+i]))
			}
			v := raws[0]
			if l.n > 1 {
				v = store.GroupValue(raws...)
			}
			if err := lb.Put(binary.BigEndian.AppendUint64(nil, uint64(l.first)), v); err != nil {
				return err
			}
		}
		return lb.SetSequence(21)
	})

	s = openNoMove(t, path)
	checkReaders(t, s, "t", want[:21])
	mustAppend(t, s, "t", want[21:30]...)
	checkReaders(t, s, "t", want[:30])
	if err := store.MoveJournal(s); err != nil {
		t.Fatal(err)
	}
	checkReaders(t, s, "t", want[:30])
	mustAppend(t, s, "t", want[30:]...)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Each move put one value: entries 22-30, then 31-40.
	var keys []uint64
	editLog(t, path, "t", func(lb *bolt.Bucket) error {
		return lb.ForEach(func(k, _ []byte) error {
			keys = append(keys, binary.BigEndian.Uint64(k))
			return nil
		})
	})
	if got, want := fmt.Sprint(keys), "[1 2 3 4 11 12 21 22 31]"; got != want {
		t.Errorf("the log's keys %s, want %s", got, want)
	}
	s = open(t, path)
	defer s.Close()
	checkReaders(t, s, "t", want)
}

// editLog runs f on the log of table in the bbolt file at path, the
// store closed.
func editLog(t *testing.T, path, table string, f func(lb *bolt.Bucket) error) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(func(tx *bolt.Tx) error {
		return f(tx.Bucket([]byte("tables")).Bucket([]byte(table)).Bucket([]byte("log")))
	}); err != nil {
		t.Fatal(err)
	}
}
