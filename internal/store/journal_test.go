package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// openNoMove opens a store whose writer never moves the journal by
// itself (only MoveJournal and Close do).
func openNoMove(t testing.TB, path string) *store.Bolt[move] {
	t.Helper()
	s, err := store.Open[move](path, moveCodec{}, store.WithJournalMove(time.Hour, 1<<30))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// numbered returns n entries told apart by their action.
func numbered(from, n int) []host.Entry[move] {
	es := make([]host.Entry[move], n)
	for i := range es {
		es[i] = host.Entry[move]{At: t0.Add(time.Duration(from+i) * time.Second), Kind: host.EntryAction, Actor: 1, Action: move{1, uint8(from + i)}}
	}
	return es
}

func mustAppend(t *testing.T, s *store.Bolt[move], table string, es ...host.Entry[move]) {
	t.Helper()
	if err := s.Append(context.Background(), table, es...); err != nil {
		t.Fatalf("Append(%s): %v", table, err)
	}
}

// checkReaders reads table through every reader and wants its log to be
// want: Load (if the table is not finished), LoadTable, LoadEntries from
// every point, and SaveSnapshot, which refuses a snapshot of more.
func checkReaders(t *testing.T, s *store.Bolt[move], table string, want []host.Entry[move]) {
	t.Helper()
	ctx := context.Background()
	var loaded []host.Entry[move]
	found := false
	err := s.Load(ctx, func(rec host.TableRecord, snap *host.TableSnapshot, es []host.Entry[move]) error {
		if rec.ID == table {
			found = true
			from := 0
			if snap != nil {
				from = int(snap.Entries)
			}
			loaded = append(slices.Clone(want[:min(from, len(want))]), es...)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if found && !reflect.DeepEqual(loaded, want) {
		t.Errorf("Load(%s) = %d entries %v, want %d %v", table, len(loaded), loaded, len(want), want)
	}
	_, snap, es, err := s.LoadTable(ctx, table)
	if err != nil {
		t.Fatalf("LoadTable(%s): %v", table, err)
	}
	from := 0
	if snap != nil {
		from = int(snap.Entries)
	}
	if got := append(slices.Clone(want[:min(from, len(want))]), es...); !reflect.DeepEqual(got, want) {
		t.Errorf("LoadTable(%s) = %d entries, want %d", table, len(got), len(want))
	}
	for from := range len(want) + 1 {
		es, err := s.LoadEntries(ctx, table, uint64(from))
		if err != nil {
			t.Fatalf("LoadEntries(%s, %d): %v", table, from, err)
		}
		if w := want[from:]; !reflect.DeepEqual(es, w) && len(es)+len(w) > 0 {
			t.Errorf("LoadEntries(%s, %d) = %d entries, want %d", table, from, len(es), len(w))
		}
	}
	n := uint64(len(want))
	if err := s.SaveSnapshot(ctx, table, host.TableSnapshot{Entries: n + 1, State: []byte("x")}); !errors.Is(err, host.ErrNoSnapshot) {
		t.Errorf("SaveSnapshot(%s) of %d entries, log of %d = %v, want ErrNoSnapshot", table, n+1, n, err)
	}
}

// TestJournalReaders: entries read the same to every reader while they
// are in the journal, after the writer moved them into the tables' logs,
// and when a table has some in each.
func TestJournalReaders(t *testing.T) {
	s := openNoMove(t, filepath.Join(t.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"t1", "t2"} {
		if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	logs := map[string][]host.Entry[move]{}
	add := func(id string, es ...host.Entry[move]) {
		mustAppend(t, s, id, es...)
		logs[id] = append(logs[id], es...)
	}
	for _, step := range []struct {
		name    string
		do      func()
		journal int // entries in the journal after it
	}{
		{"empty", func() {}, 0},
		{"journal only", func() { add("t1", numbered(0, 3)...); add("t2", numbered(10, 2)...); add("t1", numbered(3, 1)...) }, 6},
		{"moved", func() {
			if err := store.MoveJournal(s); err != nil {
				t.Fatal(err)
			}
		}, 0},
		{"log and journal", func() { add("t2", numbered(12, 2)...); add("t1", numbered(4, 1)...) }, 3},
		{"snapshot inside the journal", func() {
			// A snapshot of t1 that covers an entry still in the journal:
			// readers from the snapshot on read past it.
			if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 5, State: []byte("s")}); err != nil {
				t.Fatal(err)
			}
			add("t1", numbered(5, 2)...)
		}, 5},
		{"moved again", func() {
			if err := store.MoveJournal(s); err != nil {
				t.Fatal(err)
			}
		}, 0},
	} {
		t.Run(step.name, func(t *testing.T) {
			step.do()
			if got := store.JournalLen(s); got != step.journal {
				t.Errorf("journal holds %d entries, want %d", got, step.journal)
			}
			for _, id := range []string{"t1", "t2"} {
				checkReaders(t, s, id, logs[id])
			}
		})
	}
}

// TestJournalMovesWhenFull: the writer moves the journal once it holds
// the entries it may, and nothing is lost or doubled.
func TestJournalMovesWhenFull(t *testing.T) {
	s, err := store.Open[move](filepath.Join(t.TempDir(), "a.db"), moveCodec{}, store.WithJournalMove(time.Hour, 4))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Create(context.Background(), host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	want := numbered(0, 10)
	for i := range want {
		mustAppend(t, s, "t", want[i])
	}
	// The appender tells the writer, which moves it in its own time.
	deadline := time.Now().Add(5 * time.Second)
	for store.JournalLen(s) >= 4 {
		if time.Now().After(deadline) {
			t.Fatalf("journal holds %d entries after 5 s, want fewer than 4", store.JournalLen(s))
		}
		time.Sleep(time.Millisecond)
	}
	checkReaders(t, s, "t", want)
}

// TestJournalMovesInTime: a quiet store moves its journal once the
// oldest entry has waited long enough.
func TestJournalMovesInTime(t *testing.T) {
	s, err := store.Open[move](filepath.Join(t.TempDir(), "a.db"), moveCodec{}, store.WithJournalMove(20*time.Millisecond, 1<<30))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Create(context.Background(), host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "t", numbered(0, 2)...)
	deadline := time.Now().Add(5 * time.Second)
	for store.JournalLen(s) > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the journal was not moved within 5 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
	checkReaders(t, s, "t", numbered(0, 2))
}

// copyFile copies a file.
func copyFile(t testing.TB, from, to string) {
	t.Helper()
	raw, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// copyStore copies the store at from (its file and its write-ahead log)
// to to, as a crash would leave it: every write acknowledged so far, none
// in flight (each test waits for its writes before it copies). The log
// is copied first: an entry the writer moves into the file meanwhile,
// and retires from the log, is in the file's copy then.
func copyStore(t testing.TB, from, to string) {
	t.Helper()
	segs, err := os.ReadDir(store.WALDir(from))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(store.WALDir(to), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, seg := range segs {
		raw, err := os.ReadFile(filepath.Join(store.WALDir(from), seg.Name()))
		if errors.Is(err, os.ErrNotExist) {
			// Retired since it was listed (a move the last commit made
			// due): its entries are in the file, copied below.
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(store.WALDir(to), seg.Name()), raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	copyFile(t, from, to)
}

// TestJournalCrash: a process killed after the journal's commit and
// before the move, between two chunks of a move, or after the move,
// leaves a file that opens with every acknowledged entry once, in order.
func TestJournalCrash(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	s := openNoMove(t, path)
	defer s.Close()
	ctx := context.Background()
	for _, id := range []string{"t1", "t2"} {
		if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]host.Entry[move]{"t1": numbered(0, 3), "t2": numbered(10, 1)}
	mustAppend(t, s, "t1", want["t1"]...)
	mustAppend(t, s, "t2", want["t2"]...)
	copyStore(t, path, filepath.Join(dir, "journal-only.db"))
	// A move of t1's chunk, not yet of t2's: t1's entries are in its log
	// and still in the journal.
	if err := store.MoveTables(s, "t1"); err != nil {
		t.Fatal(err)
	}
	copyStore(t, path, filepath.Join(dir, "part-moved.db"))
	checkReaders(t, s, "t1", want["t1"])
	if err := store.MoveJournal(s); err != nil {
		t.Fatal(err)
	}
	copyStore(t, path, filepath.Join(dir, "moved.db"))
	more := numbered(20, 2)
	mustAppend(t, s, "t2", more...)
	copyStore(t, path, filepath.Join(dir, "both.db"))

	for _, tc := range []struct {
		file string
		t2   []host.Entry[move]
	}{
		{"journal-only.db", want["t2"]},
		{"part-moved.db", want["t2"]},
		{"moved.db", want["t2"]},
		{"both.db", append(slices.Clone(want["t2"]), more...)},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := openNoMove(t, filepath.Join(dir, tc.file))
			defer r.Close()
			if n := store.JournalLen(r); n != 0 {
				t.Errorf("journal holds %d entries after Open, want them moved", n)
			}
			checkReaders(t, r, "t1", want["t1"])
			checkReaders(t, r, "t2", tc.t2)
			// Numbering goes on after the recovered entries.
			next := numbered(30, 1)
			mustAppend(t, r, "t2", next...)
			checkReaders(t, r, "t2", append(slices.Clone(tc.t2), next...))
		})
	}
}

// TestJournalDeletedTable: the journal entries of a deleted table go with
// it; a table created again under its id starts an empty log.
func TestJournalDeletedTable(t *testing.T) {
	for _, how := range []string{"Delete", "Prune", "Delete after its move"} {
		t.Run(how, func(t *testing.T) {
			s := openNoMove(t, filepath.Join(t.TempDir(), "a.db"))
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
			case "Delete after its move":
				// Moved, not yet emptied out of the journal.
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
				if n, err := s.Prune(ctx, t0.Add(time.Second)); err != nil || n != 1 {
					t.Fatalf("Prune = %d, %v; want 1 table", n, err)
				}
			}
			if n := store.JournalLen(s); n != 2 {
				t.Errorf("journal holds %d entries after %s, want u's 2", n, how)
			}
			// The writer knew t by its entries in the journal: gone with them.
			if err := s.Append(ctx, "t", numbered(3, 1)...); !errors.Is(err, host.ErrNoTable) {
				t.Errorf("Append to t after %s = %v, want %v", how, err, host.ErrNoTable)
			}
			if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
				t.Fatal(err)
			}
			again := numbered(40, 1)
			mustAppend(t, s, "t", again...)
			checkReaders(t, s, "t", again)
			if err := store.MoveJournal(s); err != nil {
				t.Fatal(err)
			}
			checkReaders(t, s, "t", again)
			checkReaders(t, s, "u", numbered(10, 2))
		})
	}
}

// TestJournalAppendAfterFinish: the writer forgets the last number of a
// table that finishes, and finds it again in the log or the journal at
// its next append, before and after a move and a reopen.
func TestJournalAppendAfterFinish(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := openNoMove(t, path)
	ctx := context.Background()
	if err := s.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "t", numbered(0, 3)...)
	if err := s.Finish(ctx, "t", t0); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "t", numbered(3, 1)...)
	if err := store.MoveJournal(s); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(ctx, "t", t0); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "t", numbered(4, 1)...)
	checkReaders(t, s, "t", numbered(0, 5))
	// A Finish and an Append in one commit.
	done := make(chan error, 1)
	go func() { done <- s.Finish(ctx, "t", t0) }()
	mustAppend(t, s, "t", numbered(5, 1)...)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	checkReaders(t, s, "t", numbered(0, 6))
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = openNoMove(t, path)
	defer s.Close()
	mustAppend(t, s, "t", numbered(6, 1)...)
	checkReaders(t, s, "t", numbered(0, 7))
}

// TestOpenOldFile opens a file written by the store before the journal
// existed (testdata/v1.db: tables t0, t1 and t2 of the five sample
// entries each, a snapshot of t1 at 3, t2 finished): everything reads
// back, and appends number on.
func TestOpenOldFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	copyFile(t, filepath.Join("testdata", "v1.db"), path)
	s := open(t, path)
	ctx := context.Background()
	var ids []string
	err := s.Load(ctx, func(rec host.TableRecord, _ *host.TableSnapshot, _ []host.Entry[move]) error {
		ids = append(ids, rec.ID)
		return nil
	})
	if want := []string{"t0", "t1"}; err != nil || !slices.Equal(ids, want) {
		t.Fatalf("Load = %v, %v; want %v", ids, err, want)
	}
	_, snap, es, err := s.LoadTable(ctx, "t1")
	if err != nil || snap == nil || snap.Entries != 3 || string(snap.State) != "state" || len(es) != 2 {
		t.Fatalf("LoadTable(t1) = %v, %d entries, %v; want the snapshot at 3 and 2 entries", snap, len(es), err)
	}
	for _, id := range []string{"t0", "t2"} {
		checkReaders(t, s, id, sampleEntries())
	}
	more := numbered(50, 2)
	mustAppend(t, s, "t0", more...)
	want := append(sampleEntries(), more...)
	checkReaders(t, s, "t0", want)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	checkReaders(t, s, "t0", want)
	if n := store.JournalLen(s); n != 0 {
		t.Errorf("journal holds %d entries after a clean close", n)
	}
}

// TestJournalConcurrent: many tables appending at once, with the writer
// moving the journal (in chunks, more tables than one chunk moves) every
// hundred entries; every table reads back its own entries in order.
func TestJournalConcurrent(t *testing.T) {
	s, err := store.Open[move](filepath.Join(t.TempDir(), "a.db"), moveCodec{}, store.WithJournalMove(time.Hour, 100))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const tables, each = 300, 8
	done := make(chan error, tables)
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
			t.Fatal(err)
		}
		go func() {
			for j := range each {
				if err := s.Append(ctx, id, numbered(j, 1)...); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
	}
	for range tables {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i := range tables {
		checkReaders(t, s, fmt.Sprint("t", i), numbered(0, each))
	}
}

// FuzzDecodeJournal: a journal value decodes to what was put in it, and
// no bytes make the decoder panic or read past them.
func FuzzDecodeJournal(f *testing.F) {
	f.Add("t1", uint64(1), []byte{1, 2, 3}, []byte{})
	f.Add(string(make([]byte, 200)), uint64(1<<40), []byte{}, []byte{0x80})
	f.Add("", uint64(0), []byte(nil), []byte{2, 'a', 'b', 0, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, table string, n uint64, raw, junk []byte) {
		v := store.JournalValue(table, n, raw)
		id, gotN, gotRaw, err := store.DecodeJournal(v)
		if err != nil || string(id) != table || gotN != n || !bytes.Equal(gotRaw, raw) {
			t.Fatalf("DecodeJournal(JournalValue(%q, %d, %x)) = %q, %d, %x, %v", table, n, raw, id, gotN, gotRaw, err)
		}
		if id, _, raw, err := store.DecodeJournal(junk); err == nil && len(id)+8+len(raw) > len(junk) {
			t.Fatalf("DecodeJournal(%x) read %d+8+%d bytes", junk, len(id), len(raw))
		}
	})
}

// TestAppendsDuringDrains: appends from many tables while the writer
// drains the journal again and again (rotating and retiring the log's
// small segments), and a table deleted and created again under appends
// that race with it, leave every table with its own entries, once, in
// order: in memory, after a crash (a copy of the files) and after Close.
func TestAppendsDuringDrains(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.db")
	s, err := store.Open[move](path, moveCodec{}, store.WithJournalMove(time.Hour, 16), store.WithSegmentSize(4<<10))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const tables, each = 20, 40
	errs := make(chan error, tables+2)
	for i := range tables {
		id := fmt.Sprint("t", i)
		if err := s.Create(ctx, host.TableRecord{ID: id}); err != nil {
			t.Fatal(err)
		}
		go func() {
			for j := range each {
				if err := s.Append(ctx, id, numbered(j, 1)...); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	stop := make(chan struct{})
	go func() { // appends racing with the churn below
		for {
			select {
			case <-stop:
				errs <- nil
				return
			default:
			}
			if err := s.Append(ctx, "c", numbered(99, 1)...); err != nil && !errors.Is(err, host.ErrNoTable) {
				errs <- err
				return
			}
		}
	}()
	go func() {
		for range 20 {
			if err := s.Create(ctx, host.TableRecord{ID: "c"}); err != nil {
				errs <- err
				return
			}
			if err := s.Append(ctx, "c", numbered(0, 2)...); err != nil {
				errs <- err
				return
			}
			if err := s.Delete(ctx, "c"); err != nil {
				errs <- err
				return
			}
		}
		errs <- nil
	}()
	for range tables + 1 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := s.LoadTable(ctx, "c"); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("LoadTable of the deleted table: %v, want ErrNoTable", err)
	}
	if err := s.Create(ctx, host.TableRecord{ID: "c"}); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, s, "c", numbered(50, 2)...)
	check := func(t *testing.T, s *store.Bolt[move]) {
		for i := range tables {
			checkReaders(t, s, fmt.Sprint("t", i), numbered(0, each))
		}
		checkReaders(t, s, "c", numbered(50, 2))
	}
	check(t, s)
	copyStore(t, path, filepath.Join(dir, "crash.db"))
	t.Run("crash", func(t *testing.T) {
		r := openNoMove(t, filepath.Join(dir, "crash.db"))
		defer r.Close()
		check(t, r)
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	t.Run("close", func(t *testing.T) {
		r := openNoMove(t, path)
		defer r.Close()
		check(t, r)
	})
}
