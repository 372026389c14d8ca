package store_test

import (
	"path/filepath"
	"testing"

	"github.com/mahjong-authority/authority/internal/store"
	"github.com/mahjong-authority/authority/internal/store/storetest"
)

// TestConformance runs the stores' shared scenarios (package storetest)
// on the bbolt store: a crash is a copy of the file and its log while it
// is open, a damage a byte string that decodes as no entry in place of
// the first.
func TestConformance(t *testing.T) {
	storetest.Run(t, storetest.Subject{
		Open: func(t testing.TB, dir string) storetest.Store {
			s, err := store.Open[storetest.Move](filepath.Join(dir, "a.db"), storetest.MoveCodec{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		},
		Close: func(s storetest.Store) error { return s.(*store.Bolt[storetest.Move]).Close() },
		Crash: func(t testing.TB, dir string) string {
			to := t.TempDir()
			copyStore(t, filepath.Join(dir, "a.db"), filepath.Join(to, "a.db"))
			return to
		},
		Damage:  func(t testing.TB, dir, id string) { corruptFirstEntry(t, filepath.Join(dir, "a.db"), id) },
		Encodes: true,
	})
}
