package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// move is a test action: two small numbers.
type move struct{ Seat, N uint8 }

type moveCodec struct{}

func (moveCodec) AppendAction(dst []byte, a move) []byte { return append(dst, a.Seat, a.N) }

func (moveCodec) DecodeAction(b []byte) (move, error) {
	if len(b) != 2 {
		return move{}, fmt.Errorf("move of %d bytes", len(b))
	}
	return move{b[0], b[1]}, nil
}

func open(t testing.TB, path string) *store.Bolt[move] {
	t.Helper()
	s, err := store.Open[move](path, moveCodec{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

var t0 = time.Unix(1_700_000_000, 123456789)

func sampleEntries() []host.Entry[move] {
	return []host.Entry[move]{
		{At: t0, Kind: host.EntryNotice, Actor: 1, Notice: host.Notice{Kind: host.NoticeJoined, Seat: 1, Name: "ann"}, TokenHash: [32]byte{1, 2, 3}, Entropy: []byte("random")},
		{At: t0.Add(time.Second), Kind: host.EntryNotice, Actor: host.System, Notice: host.Notice{Kind: host.NoticeStarted, Seat: -1}},
		{At: t0.Add(2 * time.Second), Kind: host.EntryAction, Actor: host.System, Action: move{0, 9}},
		{At: t0.Add(3 * time.Second), Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "req-7"},
		{At: t0.Add(4 * time.Second), Kind: host.EntryRelease, Actor: host.System},
	}
}

func load(t *testing.T, s *store.Bolt[move]) (recs []host.TableRecord, logs [][]host.Entry[move]) {
	t.Helper()
	err := s.Load(context.Background(), func(rec host.TableRecord, snap *host.TableSnapshot, es []host.Entry[move]) error {
		if snap != nil {
			t.Errorf("table %s has a snapshot", rec.ID)
		}
		recs, logs = append(recs, rec), append(logs, es)
		return nil
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return recs, logs
}

// TestReopen writes tables, closes the file and opens it again: every
// record and entry is back, in order.
func TestReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	ctx := context.Background()
	rec := host.TableRecord{ID: "t1", Settings: host.Settings{Seats: 4, TurnTime: time.Second, ClaimDwell: time.Second}, Meta: []byte{0, 1, 2}, Created: t0.UTC(), OwnerHash: [32]byte{9}}
	rec2 := rec
	rec2.ID = "a0" // sorts first by id, created second
	for _, r := range []host.TableRecord{rec, rec2} {
		if err := s.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, rec); err == nil {
		t.Fatal("Create of an existing table succeeded")
	}
	want := sampleEntries()
	if err := s.Append(ctx, "t1", want[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "t1", want[2:]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "nope", want[0]); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("Append to an unknown table = %v, want ErrNoTable", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "t1", want[0]); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Append after Close = %v, want ErrClosed", err)
	}
	s = open(t, path)
	defer s.Close()
	recs, logs := load(t, s)
	if len(recs) != 2 || recs[0].ID != "t1" || recs[1].ID != "a0" {
		t.Fatalf("tables %+v, want t1 then a0", recs)
	}
	if !reflect.DeepEqual(recs[0], rec) {
		t.Fatalf("record %+v, want %+v", recs[0], rec)
	}
	for i := range want {
		want[i].At = want[i].At.Round(0)
		logs[0][i].At = logs[0][i].At.Round(0)
		if !logs[0][i].At.Equal(want[i].At) {
			t.Fatalf("entry %d at %v, want %v", i, logs[0][i].At, want[i].At)
		}
		logs[0][i].At = want[i].At
	}
	if !reflect.DeepEqual(logs[0], want) {
		t.Fatalf("entries\n%+v\nwant\n%+v", logs[0], want)
	}
	if len(logs[1]) != 0 {
		t.Fatalf("a0 has %d entries, want none", len(logs[1]))
	}
}

// TestConcurrentAppends has many tables write at once, as the group commit
// takes them: each table's log is complete and in order, and a write to an
// unknown table in the middle fails alone.
func TestConcurrentAppends(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "a.db"))
	defer s.Close()
	ctx := context.Background()
	const tables, writes = 8, 40
	for i := range tables {
		if err := s.Create(ctx, host.TableRecord{ID: fmt.Sprint("t", i), Settings: host.Settings{Seats: 4}}); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, tables*writes)
	for i := range tables {
		wg.Go(func() {
			for n := range writes {
				errs <- s.Append(ctx, fmt.Sprint("t", i), host.Entry[move]{At: t0, Kind: host.EntryAction, Action: move{uint8(i), uint8(n)}})
			}
		})
	}
	wg.Go(func() {
		for range writes {
			if err := s.Append(ctx, "missing", host.Entry[move]{Kind: host.EntryRelease}); !errors.Is(err, host.ErrNoTable) {
				errs <- fmt.Errorf("append to a missing table: %v", err)
			}
		}
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	_, logs := load(t, s)
	for i, es := range logs {
		if len(es) != writes {
			t.Fatalf("table %d has %d entries, want %d", i, len(es), writes)
		}
		for n, e := range es {
			if e.Action != (move{uint8(i), uint8(n)}) {
				t.Fatalf("table %d entry %d = %+v", i, n, e.Action)
			}
		}
	}
}

func TestFaulty(t *testing.T) {
	mem := host.NewMemoryStore[move]()
	f := store.NewFaulty[move](mem)
	ctx := context.Background()
	if err := f.Create(ctx, host.TableRecord{ID: "t"}); err != nil {
		t.Fatal(err)
	}
	full := errors.New("disk full")
	f.SetFault(full)
	if err := f.Append(ctx, "t", host.Entry[move]{Kind: host.EntryRelease}); !errors.Is(err, full) {
		t.Fatalf("Append with a fault = %v", err)
	}
	if err := f.SaveSnapshot(ctx, "t", host.TableSnapshot{}); !errors.Is(err, full) {
		t.Fatalf("SaveSnapshot with a fault = %v", err)
	}
	f.SetFault(nil)
	if err := f.Append(ctx, "t", host.Entry[move]{Kind: host.EntryRelease}); err != nil {
		t.Fatal(err)
	}
	if err := f.SaveSnapshot(ctx, "t", host.TableSnapshot{Entries: 1}); err != nil {
		t.Fatal(err)
	}
	if _, ok := mem.Snapshot("t"); !ok {
		t.Fatal("no snapshot saved")
	}
	if n := len(mem.Entries("t")); n != 1 || f.Refused() != 2 {
		t.Fatalf("%d entries, %d refused; want 1 and 2", n, f.Refused())
	}
}

// TestSecondOpenFails: one process at a time holds the file.
func TestSecondOpenFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	defer s.Close()
	if s2, err := store.Open[move](path, moveCodec{}); err == nil {
		s2.Close()
		t.Fatal("a second Open of a held file succeeded")
	}
}

// FuzzDecodeEntry feeds arbitrary bytes to the entry decoder: it must not
// panic, and what decodes must survive a trip through the encoder.
func FuzzDecodeEntry(f *testing.F) {
	for _, e := range sampleEntries() {
		f.Add(store.EncodeEntry(moveCodec{}, e))
	}
	f.Add([]byte{1, 0, 1, 0, 0, 2, 1, 2})
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := store.DecodeEntry(b, moveCodec{})
		if err != nil {
			return
		}
		raw := store.EncodeEntry(moveCodec{}, e)
		back, err := store.DecodeEntry(raw, moveCodec{})
		if err != nil || !reflect.DeepEqual(back, e) {
			t.Fatalf("decode(%x) = %+v, which encodes to %x and decodes to %+v, %v", b, e, raw, back, err)
		}
		if again := store.EncodeEntry(moveCodec{}, back); !bytes.Equal(again, raw) {
			t.Fatalf("encoding of %+v is not stable: %x then %x", e, raw, again)
		}
	})
}

// TestSnapshots: Load gives the latest snapshot and the entries after it,
// LoadEntries any part of the log, LoadEvents the events of every snapshot
// saved, after a reopen too; a snapshot past the log is refused.
func TestSnapshots(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	ctx := context.Background()
	if err := s.Create(ctx, host.TableRecord{ID: "t1", Settings: host.Settings{Seats: 4}}); err != nil {
		t.Fatal(err)
	}
	es := sampleEntries()
	if err := s.Append(ctx, "t1", es[:3]...); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 2, State: []byte("state 2"), Events: []byte("events 2")}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 4, State: []byte("x")}); !errors.Is(err, host.ErrNoSnapshot) {
		t.Fatalf("SaveSnapshot past the log = %v, want ErrNoSnapshot", err)
	}
	if err := s.SaveSnapshot(ctx, "nope", host.TableSnapshot{}); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("SaveSnapshot of an unknown table = %v, want ErrNoTable", err)
	}
	if err := s.Append(ctx, "t1", es[3:]...); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 4, State: []byte("state 4"), Events: []byte("events 4")}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = open(t, path)
	defer s.Close()
	calls := 0
	err := s.Load(ctx, func(rec host.TableRecord, snap *host.TableSnapshot, after []host.Entry[move]) error {
		calls++
		if snap == nil || snap.Entries != 4 || string(snap.State) != "state 4" || snap.Events != nil {
			t.Fatalf("Load: snapshot %+v, want the one of 4 entries without its events", snap)
		}
		if len(after) != 1 || after[0].Kind != host.EntryRelease {
			t.Fatalf("Load: entries after the snapshot %+v, want the release", after)
		}
		return nil
	})
	if err != nil || calls != 1 {
		t.Fatalf("Load = %v after %d tables", err, calls)
	}
	for from, want := range map[uint64]int{0: 5, 2: 3, 5: 0, 9: 0} {
		got, err := s.LoadEntries(ctx, "t1", from)
		if err != nil || len(got) != want {
			t.Errorf("LoadEntries(%d) = %d entries, %v; want %d", from, len(got), err, want)
		}
		if err == nil && want > 0 && got[0].Kind != es[from].Kind {
			t.Errorf("LoadEntries(%d) starts with %v, want %v", from, got[0].Kind, es[from].Kind)
		}
	}
	for at, want := range map[uint64]string{2: "events 2", 4: "events 4"} {
		if got, err := s.LoadEvents(ctx, "t1", at); err != nil || string(got) != want {
			t.Errorf("LoadEvents(%d) = %q, %v; want %q", at, got, err, want)
		}
	}
	if _, err := s.LoadEvents(ctx, "t1", 3); !errors.Is(err, host.ErrNoSnapshot) {
		t.Errorf("LoadEvents of no snapshot = %v, want ErrNoSnapshot", err)
	}
	if _, err := s.LoadEntries(ctx, "nope", 0); !errors.Is(err, host.ErrNoTable) {
		t.Errorf("LoadEntries of an unknown table = %v, want ErrNoTable", err)
	}
}

// bigCodec encodes a move padded to a given size.
type bigCodec struct {
	moveCodec
	size int
}

func (c bigCodec) AppendAction(dst []byte, a move) []byte {
	dst = append(dst, a.Seat, a.N)
	return append(dst, make([]byte, c.size)...)
}

// TestAppendRefusesWhatDoesNotLoad checks that Append refuses an entry it
// could not read back, rather than acknowledge it and leave a log that
// stops every recovery.
func TestAppendRefusesWhatDoesNotLoad(t *testing.T) {
	long := string(bytes.Repeat([]byte("x"), 2000))
	for _, tc := range []struct {
		name   string
		size   int // of an action's padding
		change func(e *host.Entry[move])
	}{
		{name: "request id", change: func(e *host.Entry[move]) { e.RequestID = long }},
		{name: "name", change: func(e *host.Entry[move]) { e.Notice.Name = long }},
		{name: "entropy", change: func(e *host.Entry[move]) { e.Entropy = []byte(long) }},
		{name: "action", size: 5000},
		{name: "action past 64 KiB", size: 70000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := store.Open[move](filepath.Join(t.TempDir(), "a.db"), bigCodec{size: tc.size})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			ctx := context.Background()
			if err := s.Create(ctx, host.TableRecord{ID: "t1", Settings: host.Settings{Seats: 4}, Created: t0}); err != nil {
				t.Fatal(err)
			}
			e := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 1, Action: move{1, 2}, RequestID: "r1"}
			if tc.change != nil {
				tc.change(&e)
			}
			ok := host.Entry[move]{At: t0, Kind: host.EntryAction, Actor: 0, Action: move{0, 1}}
			if err := s.Append(ctx, "t1", ok, e); err == nil {
				t.Errorf("Append with too large a %s = nil, want an error", tc.name)
			}
			if err := s.Load(ctx, func(host.TableRecord, *host.TableSnapshot, []host.Entry[move]) error { return nil }); err != nil {
				t.Fatalf("Load after the Append: %v", err)
			}
			if es, err := s.LoadEntries(ctx, "t1", 0); err != nil || len(es) != 0 {
				t.Fatalf("log after a refused Append = %d entries, %v; want none", len(es), err)
			}
		})
	}
}

// TestAppendsRecycled: Appends of many tables at once, some with their
// context ended and some racing with Close, each read back exactly when
// it was acknowledged (Append recycles its requests: one reused before
// its answer was taken would mix tables or lose entries; go test -race
// watches the reuse).
func TestAppendsRecycled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	s := open(t, path)
	const tables, writes = 16, 120
	ctx := context.Background()
	for i := range tables {
		if err := s.Create(ctx, host.TableRecord{ID: fmt.Sprint("t", i)}); err != nil {
			t.Fatal(err)
		}
	}
	ended, cancel := context.WithCancel(ctx)
	cancel()
	acked := make([][]host.Entry[move], tables)
	var wg sync.WaitGroup
	half := make(chan struct{})
	var closeErr error
	wg.Go(func() {
		<-half
		closeErr = s.Close() // the appends after fail with ErrClosed, or land first
	})
	for i := range tables {
		wg.Go(func() {
			for n, e := range numbered(0, writes) {
				e.Actor = i
				c := ctx
				if n%7 == 3 {
					c = ended // queued or not, as select picks
				}
				if i == 0 && n == writes/2 {
					close(half)
				}
				switch err := s.Append(c, fmt.Sprint("t", i), e); {
				case err == nil:
					acked[i] = append(acked[i], e)
				case errors.Is(err, context.Canceled) || errors.Is(err, store.ErrClosed):
				default:
					t.Errorf("append %d to t%d: %v", n, i, err)
				}
			}
		})
	}
	wg.Wait()
	if closeErr != nil {
		t.Fatal(closeErr)
	}
	s = open(t, path)
	defer s.Close()
	for i := range tables {
		checkReaders(t, s, fmt.Sprint("t", i), acked[i])
	}
}
