package store_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// createTables creates n tables t0..t(n-1), each with the sample log.
func createTables(t *testing.T, s *store.Bolt[move], n int) []string {
	t.Helper()
	ctx := context.Background()
	var ids []string
	for i := range n {
		id := fmt.Sprint("t", i)
		if err := s.Create(ctx, host.TableRecord{ID: id, Settings: host.Settings{Seats: 4}, Created: t0.Add(time.Duration(i))}); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, id, sampleEntries()...); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	return ids
}

func loadedIDs(t *testing.T, s *store.Bolt[move]) []string {
	t.Helper()
	recs, _ := load(t, s)
	var ids []string
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	return ids
}

// TestFinishedTables marks tables finished: Load (and so recovery) passes
// on only the others, also after reopening the file, while LoadTable
// still reads every table, finished or not; Delete forgets a table
// whole; Prune deletes the tables finished before a time, and only those.
func TestFinishedTables(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	ctx := context.Background()
	ids := createTables(t, s, 6)
	for i, id := range []string{"t1", "t2", "t4"} {
		if err := s.Finish(ctx, id, t0.Add(time.Duration(i)*time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Finish(ctx, "t1", t0.Add(5*time.Hour)); err != nil {
		t.Errorf("Finish twice = %v", err)
	}
	if err := s.Finish(ctx, "nope", t0); !errors.Is(err, host.ErrNoTable) {
		t.Errorf("Finish of an unknown table = %v, want ErrNoTable", err)
	}
	if got, want := loadedIDs(t, s), []string{"t0", "t3", "t5"}; !slices.Equal(got, want) {
		t.Fatalf("Load = %v, want %v", got, want)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	if got, want := loadedIDs(t, s), []string{"t0", "t3", "t5"}; !slices.Equal(got, want) {
		t.Fatalf("Load after reopening = %v, want %v", got, want)
	}
	for _, id := range ids {
		rec, snap, es, err := s.LoadTable(ctx, id)
		if err != nil || rec.ID != id || snap != nil || len(es) != len(sampleEntries()) {
			t.Errorf("LoadTable(%s) = %s, %v, %d entries, %v", id, rec.ID, snap, len(es), err)
		}
	}
	if _, _, _, err := s.LoadTable(ctx, "nope"); !errors.Is(err, host.ErrNoTable) {
		t.Errorf("LoadTable of an unknown table = %v, want ErrNoTable", err)
	}

	// t3 (not finished) and t2 (finished) are deleted whole.
	for _, id := range []string{"t3", "t2", "t2", "nope"} {
		if err := s.Delete(ctx, id); err != nil {
			t.Fatalf("Delete(%s) = %v", id, err)
		}
	}
	if _, _, _, err := s.LoadTable(ctx, "t2"); !errors.Is(err, host.ErrNoTable) {
		t.Errorf("LoadTable of a deleted table = %v, want ErrNoTable", err)
	}
	if got, want := loadedIDs(t, s), []string{"t0", "t5"}; !slices.Equal(got, want) {
		t.Fatalf("Load after Delete = %v, want %v", got, want)
	}
	// A deleted id may be created again.
	if err := s.Create(ctx, host.TableRecord{ID: "t2", Settings: host.Settings{Seats: 4}}); err != nil {
		t.Fatalf("Create of a deleted id = %v", err)
	}

	// t1 ended at 0h, t4 at 2h: a pruning before 2h deletes t1 only.
	if n, err := s.Prune(ctx, t0.Add(2*time.Hour)); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1", n, err)
	}
	for id, kept := range map[string]bool{"t0": true, "t1": false, "t4": true, "t5": true, "t2": true} {
		if _, _, _, err := s.LoadTable(ctx, id); (err == nil) != kept {
			t.Errorf("after pruning %s: %v, want kept %v", id, err, kept)
		}
	}
	if n, err := s.Prune(ctx, t0.Add(24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("second Prune = %d, %v; want 1 (t4)", n, err)
	}
	if got, want := loadedIDs(t, s), []string{"t0", "t5", "t2"}; !slices.Equal(got, want) {
		t.Fatalf("Load after pruning = %v, want %v", got, want)
	}
}

// TestPruneBatches prunes more tables than one transaction takes.
func TestPruneBatches(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	ids := createTables(t, s, 600)
	for i, id := range ids {
		if err := s.Finish(ctx, id, t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := s.Prune(ctx, t0.Add(550*time.Second)); err != nil || n != 550 {
		t.Fatalf("Prune = %d, %v; want 550", n, err)
	}
	for i, id := range ids {
		if _, _, _, err := s.LoadTable(ctx, id); (err == nil) != (i >= 550) {
			t.Fatalf("table %d after pruning: %v", i, err)
		}
	}
}

// TestPruneOrphanIndex: finished-index entries whose tables are missing
// (a damaged file) are pruned like the others, and cannot stall the
// pruning in a loop of batches that delete nothing.
func TestPruneOrphanIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	ctx := context.Background()
	ids := createTables(t, s, 300)
	for i, id := range ids {
		if err := s.Finish(ctx, id, t0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		for _, id := range ids[:280] {
			if err := tx.Bucket([]byte("tables")).DeleteBucket([]byte(id)); err != nil {
				return err
			}
		}
		return nil
	})
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := s.Prune(ctx, t0.Add(290*time.Second))
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || r.n != 290 {
			t.Fatalf("Prune = %d, %v; want 290 index entries", r.n, r.err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Prune does not end")
	}
	for i, id := range ids {
		if _, _, _, err := s.LoadTable(ctx, id); (err == nil) != (i >= 290) {
			t.Fatalf("table %d after pruning: %v", i, err)
		}
	}
}

// TestOpenAddsLiveIndex opens a file written before the index of tables
// not finished existed: every table is in it, and can be finished.
func TestOpenAddsLiveIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	createTables(t, s, 3)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// Make it an older file: no "live" bucket, no "seq" keys.
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket([]byte("live")); err != nil {
			return err
		}
		return tx.Bucket([]byte("tables")).ForEachBucket(func(id []byte) error {
			return tx.Bucket([]byte("tables")).Bucket(id).Delete([]byte("seq"))
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	if got, want := loadedIDs(t, s), []string{"t0", "t1", "t2"}; !slices.Equal(got, want) {
		t.Fatalf("Load of an old file = %v, want %v", got, want)
	}
	if err := s.Finish(context.Background(), "t1", t0); err != nil {
		t.Fatal(err)
	}
	if got, want := loadedIDs(t, s), []string{"t0", "t2"}; !slices.Equal(got, want) {
		t.Fatalf("Load after finishing t1 = %v, want %v", got, want)
	}
	if err := s.Delete(context.Background(), "t0"); err != nil {
		t.Fatal(err)
	}
	if got, want := loadedIDs(t, s), []string{"t2"}; !slices.Equal(got, want) {
		t.Fatalf("Load after deleting t0 = %v, want %v", got, want)
	}
}

// TestFaultyRefusesLifecycleWrites: Finish, Delete and Prune are writes,
// refused while a fault is set.
func TestFaultyRefusesLifecycleWrites(t *testing.T) {
	mem := host.NewMemoryStore[move]()
	f := store.NewFaulty[move](mem)
	ctx := context.Background()
	if err := f.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	f.SetFault(errors.New("disk full"))
	if err := f.Finish(ctx, "t", t0); err == nil {
		t.Error("Finish went through a fault")
	}
	if err := f.Delete(ctx, "t"); err == nil {
		t.Error("Delete went through a fault")
	}
	if _, err := f.Prune(ctx, t0); err == nil {
		t.Error("Prune went through a fault")
	}
	if f.Refused() != 3 || len(mem.Tables()) != 1 {
		t.Errorf("%d refused, store %v", f.Refused(), mem.Tables())
	}
}
