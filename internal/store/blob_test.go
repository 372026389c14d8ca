package store_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// TestSnapshotBlobsOverOldFile: a file written before blobs (testdata/v1.db:
// a snapshot of t1 at 3 as plain values) reads as before; a new
// snapshot replaces its state, one at the same count its events, and
// both read back, after a reopen too.
func TestSnapshotBlobsOverOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	copyFile(t, filepath.Join("testdata", "v1.db"), path)
	s := open(t, path)
	ctx := context.Background()
	old, err := s.LoadEvents(ctx, "t1", 3)
	if err != nil {
		t.Fatalf("LoadEvents(t1, 3) of the old file: %v", err)
	}
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 5, State: []byte("state 5"), Events: []byte("events 5")}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, "t0", host.TableSnapshot{Entries: 3, State: []byte("t0 state 3"), Events: []byte("t0 events 3")}); err != nil {
		t.Fatal(err)
	}
	check := func() {
		t.Helper()
		if _, snap, es, err := s.LoadTable(ctx, "t1"); err != nil || snap == nil || snap.Entries != 5 || string(snap.State) != "state 5" || len(es) != 0 {
			t.Errorf("LoadTable(t1) = %+v, %d entries, %v; want the snapshot at 5", snap, len(es), err)
		}
		if got, err := s.LoadEvents(ctx, "t1", 3); err != nil || !bytes.Equal(got, old) {
			t.Errorf("LoadEvents(t1, 3) = %q, %v; want %q as before", got, err, old)
		}
		if got, err := s.LoadEvents(ctx, "t1", 5); err != nil || string(got) != "events 5" {
			t.Errorf("LoadEvents(t1, 5) = %q, %v; want the new events", got, err)
		}
		if _, snap, _, err := s.LoadTable(ctx, "t0"); err != nil || snap == nil || string(snap.State) != "t0 state 3" {
			t.Errorf("LoadTable(t0) = %+v, %v; want its new snapshot", snap, err)
		}
	}
	check()
	// The events at 3 again, now as a blob: the plain value goes.
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 3, State: []byte("state 3"), Events: []byte("events 3 again")}); err != nil {
		t.Fatal(err)
	}
	old = []byte("events 3 again")
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 5, State: []byte("state 5"), Events: []byte("events 5")}); err != nil {
		t.Fatal(err)
	}
	check()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	check()
}

// TestSnapshotWritesOnce: a round's snapshot writes its own bytes and
// little more, however many rounds came before, and moving the table's
// journal does not write its snapshot again (blobs, see putBlob).
func TestSnapshotWritesOnce(t *testing.T) {
	if bytesWritten() == 0 {
		t.Skip("no /proc/self/io")
	}
	s := openNoMove(t, filepath.Join(t.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	const size = 24 << 10
	blob := func(b byte) []byte { return bytes.Repeat([]byte{b}, size) }
	var n uint64
	for round := range 8 {
		mustAppend(t, s, "t", numbered(int(n), 10)...)
		n += 10
		if err := store.MoveJournal(s); err != nil {
			t.Fatal(err)
		}
		before := bytesWritten()
		if err := s.SaveSnapshot(ctx, "t", host.TableSnapshot{Entries: n, State: blob(byte(round)), Events: blob(byte(round))}); err != nil {
			t.Fatal(err)
		}
		// The state and events, a few pages of the table's buckets and
		// the meta page; rewriting another round's events or the
		// snapshot before would be 24 kB more.
		if w := bytesWritten() - before; w > 2*size+8*4096 {
			t.Errorf("round %d: SaveSnapshot wrote %d bytes, want at most %d", round, w, 2*size+8*4096)
		}
	}
	mustAppend(t, s, "t", numbered(int(n), 1)...)
	before := bytesWritten()
	if err := store.MoveJournal(s); err != nil {
		t.Fatal(err)
	}
	if w := bytesWritten() - before; w > size {
		t.Errorf("moving one entry wrote %d bytes, want less than the %d of the snapshot", w, size)
	}
	for round := range 8 {
		got, err := s.LoadEvents(ctx, "t", uint64(round+1)*10)
		if err != nil || !bytes.Equal(got, blob(byte(round))) {
			t.Errorf("LoadEvents(%d) = %d bytes, %v; want round %d's", (round+1)*10, len(got), err, round)
		}
	}
}
