package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
)

// TestLoadSetsDamagedAside: a table whose log no longer decodes (a byte
// flipped on disk) keeps no other table from loading. Load passes the
// others to f and reports the damaged one as a *host.DamagedError that
// matches host.ErrCorruptLog; LoadTable says the same of it.
func TestLoadSetsDamagedAside(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	ctx := context.Background()
	ids := []string{"t1", "t2", "t3"}
	for i, id := range ids {
		if err := s.Create(ctx, host.TableRecord{ID: id, Settings: host.Settings{Seats: 4}, Created: t0.Add(time.Duration(i))}); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, id, sampleEntries()...); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	corruptFirstEntry(t, path, "t2")

	s = open(t, path)
	defer s.Close()
	var loaded []string
	err := s.Load(ctx, func(rec host.TableRecord, _ *host.TableSnapshot, es []host.Entry[move]) error {
		if len(es) != len(sampleEntries()) {
			t.Errorf("table %s: %d entries, want %d", rec.ID, len(es), len(sampleEntries()))
		}
		loaded = append(loaded, rec.ID)
		return nil
	})
	if !slices.Equal(loaded, []string{"t1", "t3"}) {
		t.Fatalf("Load passed %v to f, want [t1 t3]", loaded)
	}
	var d *host.DamagedError
	if !errors.As(err, &d) || d.ID != "t2" || !errors.Is(err, host.ErrCorruptLog) {
		t.Fatalf("Load = %v, want a DamagedError of t2 matching ErrCorruptLog", err)
	}
	if _, _, _, err := s.LoadTable(ctx, "t2"); !errors.Is(err, host.ErrCorruptLog) {
		t.Fatalf("LoadTable(t2) = %v, want ErrCorruptLog", err)
	}
}

// corruptFirstEntry overwrites the first log entry of table id in the
// bbolt file at path with bytes that decode as no entry.
func corruptFirstEntry(t testing.TB, path, id string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(func(tx *bolt.Tx) error {
		lb := tx.Bucket([]byte("tables")).Bucket([]byte(id)).Bucket([]byte("log"))
		k, _ := lb.Cursor().First()
		return lb.Put(k, []byte{0xff, 1, 2})
	})
	if err != nil {
		t.Fatal(err)
	}
}
