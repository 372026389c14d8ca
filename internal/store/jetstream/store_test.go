package jetstream

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

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

// sameEntries fails unless got and want are the same entries (times
// compared as instants).
func sameEntries(t *testing.T, got, want []host.Entry[move]) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d:\n%+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if !g.At.Equal(w.At) {
			t.Fatalf("entry %d at %v, want %v", i, g.At, w.At)
		}
		g.At, w.At = time.Time{}, time.Time{}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("entry %d\n%+v\nwant\n%+v", i, g, w)
		}
	}
}

func record(id string) host.TableRecord {
	return host.TableRecord{ID: id, Settings: host.Settings{Seats: 4, TurnTime: time.Second}, Meta: []byte{0, 1, 2}, Created: t0.UTC(), OwnerHash: [32]byte{9}}
}

// loadAll returns what Load passes, table by table.
func loadAll(t *testing.T, s *Store[move]) (ids []string, snaps []*host.TableSnapshot, logs [][]host.Entry[move]) {
	t.Helper()
	err := s.Load(context.Background(), func(rec host.TableRecord, snap *host.TableSnapshot, es []host.Entry[move]) error {
		ids, snaps, logs = append(ids, rec.ID), append(snaps, snap), append(logs, es)
		return nil
	})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return ids, snaps, logs
}

// TestStore goes through every method of the store on a three-node
// cluster, reading back through a second instance on another node as a
// restarted process would.
func TestStore(t *testing.T) {
	c := newCluster(t, 3)
	s := open[move](t, c, 0, "riichi", moveCodec{})
	ctx := context.Background()
	for _, id := range []string{"t1", "a0", "t2"} {
		if err := s.Create(ctx, record(id)); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Create(ctx, record("t1")); err == nil {
		t.Fatal("Create of an existing table succeeded")
	}
	if err := s.Create(ctx, record("no.dots")); err == nil {
		t.Fatal("Create of a table whose id is no subject token succeeded")
	}
	want := sampleEntries()
	if err := s.Append(ctx, "t1", want[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "t1", want[2:]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "a0", want[0]); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "nope", want[0]); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("Append to an unknown table = %v, want ErrNoTable", err)
	}
	long := want[3]
	long.RequestID = string(make([]byte, 2000))
	if err := s.Append(ctx, "t1", want[0], long); !errors.Is(err, store.ErrTooLarge) {
		t.Fatalf("Append of an entry too large = %v, want ErrTooLarge", err)
	}

	// A snapshot past the log is refused; one within it is kept, with
	// its Events, and the next replaces it.
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 6}); !errors.Is(err, host.ErrNoSnapshot) {
		t.Fatalf("snapshot past the log = %v, want ErrNoSnapshot", err)
	}
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 2, State: []byte("two"), Events: []byte("ev2")}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, "t1", host.TableSnapshot{Entries: 5, State: []byte("five"), Events: []byte("ev5")}); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveSnapshot(ctx, "nope", host.TableSnapshot{}); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("snapshot of an unknown table = %v, want ErrNoTable", err)
	}

	// Another instance, through another server.
	r := open[move](t, c, 1, "riichi", moveCodec{})
	ids, snaps, logs := loadAll(t, r)
	if !reflect.DeepEqual(ids, []string{"t1", "a0", "t2"}) {
		t.Fatalf("Load gave %v, want t1 a0 t2 (the order of creation)", ids)
	}
	if snaps[0] == nil || snaps[0].Entries != 5 || string(snaps[0].State) != "five" || snaps[0].Events != nil {
		t.Fatalf("t1's snapshot %+v, want the one of 5 entries without its events", snaps[0])
	}
	if len(logs[0]) != 0 {
		t.Fatalf("t1 loads %d entries after a snapshot of the whole log", len(logs[0]))
	}
	sameEntries(t, logs[1], want[:1])
	if snaps[1] != nil || snaps[2] != nil || len(logs[2]) != 0 {
		t.Fatalf("a0 and t2: snapshots %v %v, t2 entries %d", snaps[1], snaps[2], len(logs[2]))
	}
	for _, from := range []uint64{0, 2, 3, 5, 9} {
		es, err := r.LoadEntries(ctx, "t1", from)
		if err != nil {
			t.Fatal(err)
		}
		sameEntries(t, es, want[min(from, 5):])
	}
	for n, ev := range map[uint64]string{2: "ev2", 5: "ev5"} {
		got, err := r.LoadEvents(ctx, "t1", n)
		if err != nil || string(got) != ev {
			t.Fatalf("LoadEvents(%d) = %q, %v; want %q", n, got, err, ev)
		}
	}
	if _, err := r.LoadEvents(ctx, "t1", 3); !errors.Is(err, host.ErrNoSnapshot) {
		t.Fatalf("LoadEvents of no snapshot = %v, want ErrNoSnapshot", err)
	}
	if _, _, _, err := r.LoadTable(ctx, "nope"); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("LoadTable of an unknown table = %v, want ErrNoTable", err)
	}

	// The loading instance appends where the log ends; the first
	// instance's view is then stale (fenced), as a restart makes it.
	more := host.Entry[move]{At: t0.Add(time.Minute), Kind: host.EntryAction, Actor: 2, Action: move{2, 3}, RequestID: "req-8"}
	if err := r.Append(ctx, "t1", more); err != nil {
		t.Fatal(err)
	}
	rec, snap, es, err := s.LoadTable(ctx, "t1")
	if err != nil || rec.ID != "t1" || !reflect.DeepEqual(rec, record("t1")) || snap == nil || snap.Entries != 5 {
		t.Fatalf("LoadTable = %+v %+v, %v", rec, snap, err)
	}
	sameEntries(t, es, []host.Entry[move]{more})

	// Finished tables: Load leaves them out; LoadTable still reads them;
	// Prune deletes those finished before the time.
	if err := r.Finish(ctx, "t1", t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, "t1", t0.Add(3*time.Hour)); err != nil {
		t.Fatalf("second Finish: %v", err)
	}
	if err := r.Finish(ctx, "a0", t0.Add(2*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := r.Finish(ctx, "nope", t0); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("Finish of an unknown table = %v, want ErrNoTable", err)
	}
	if ids, _, _ := loadAll(t, r); !reflect.DeepEqual(ids, []string{"t2"}) {
		t.Fatalf("Load after Finish gave %v, want t2", ids)
	}
	if recs, err := s.Live(ctx); err != nil || len(recs) != 1 || !reflect.DeepEqual(recs[0], record("t2")) {
		t.Fatalf("Live after Finish = %+v, %v; want t2's record", recs, err)
	}
	if _, _, es, err := r.LoadTable(ctx, "a0"); err != nil || len(es) != 1 {
		t.Fatalf("LoadTable of a finished table: %d entries, %v", len(es), err)
	}
	n, err := r.Prune(ctx, t0.Add(90*time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1 (t1, finished first)", n, err)
	}
	if _, _, _, err := r.LoadTable(ctx, "t1"); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("LoadTable of a pruned table = %v", err)
	}
	if _, err := r.LoadEvents(ctx, "t1", 5); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("LoadEvents of a pruned table = %v", err)
	}
	if err := r.Delete(ctx, "t2"); err != nil {
		t.Fatal(err)
	}
	if err := r.Delete(ctx, "t2"); err != nil {
		t.Fatalf("second Delete: %v", err)
	}
	if ids, _, _ := loadAll(t, r); len(ids) != 0 {
		t.Fatalf("Load after Delete gave %v", ids)
	}
	if n, err := r.Prune(ctx, t0.Add(24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want 1 (a0)", n, err)
	}
	// What is left of the streams: the live index is empty, the logs
	// too.
	for _, st := range []jetstream.Stream{r.live, r.log, r.meta} {
		info, err := st.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if info.State.Msgs != 0 {
			t.Errorf("stream %s keeps %d messages", info.Config.Name, info.State.Msgs)
		}
	}
}

// TestConcurrentAppends has many tables append at once, in parallel:
// each log is whole and in order.
func TestConcurrentAppends(t *testing.T) {
	c := newCluster(t, 3)
	s := open[move](t, c, 0, "riichi", moveCodec{})
	ctx := context.Background()
	const tables, writes = 8, 20
	for i := range tables {
		if err := s.Create(ctx, record(fmt.Sprint("t", i))); err != nil {
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
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	_, _, logs := loadAll(t, open[move](t, c, 2, "riichi", moveCodec{}))
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

// logMessages returns how many messages a table's log holds.
func logMessages(t *testing.T, s *Store[move], table string) uint64 {
	t.Helper()
	info, err := s.log.Info(context.Background(), jetstream.WithSubjectFilter(s.subject("log", table)))
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Subjects[s.subject("log", table)]
}

// TestFencing has two nodes share a table: A creates and plays it, B
// claims it; from then on A's appends fail with ErrFenced and store
// nothing, and B's go on where A's ended.
func TestFencing(t *testing.T) {
	c := newCluster(t, 3)
	a := open[move](t, c, 0, "riichi", moveCodec{}, WithNodeID("A"))
	b := open[move](t, c, 1, "riichi", moveCodec{}, WithNodeID("B"))
	ctx := context.Background()
	if err := a.Create(ctx, record("t")); err != nil {
		t.Fatal(err)
	}
	want := sampleEntries()
	if err := a.Append(ctx, "t", want[:3]...); err != nil {
		t.Fatal(err)
	}
	// B may not append to a table it has not claimed.
	if err := b.Append(ctx, "t", want[3]); !errors.Is(err, host.ErrFenced) {
		t.Fatalf("Append of a node that did not claim = %v, want ErrFenced", err)
	}
	_, _, es, err := b.Claim(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	sameEntries(t, es, want[:3])
	before := logMessages(t, a, "t")
	for range 2 {
		if err := a.Append(ctx, "t", want[3]); !errors.Is(err, host.ErrFenced) {
			t.Fatalf("Append of the node that lost the table = %v, want ErrFenced", err)
		}
	}
	// A read does not give the table back to A.
	if _, _, _, err := a.LoadTable(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := a.Append(ctx, "t", want[3]); !errors.Is(err, host.ErrFenced) {
		t.Fatalf("Append after a read of the node that lost the table = %v, want ErrFenced", err)
	}
	if after := logMessages(t, a, "t"); after != before {
		t.Fatalf("the fenced appends left %d messages in the log", after-before)
	}
	if err := b.Append(ctx, "t", want[3:]...); err != nil {
		t.Fatal(err)
	}
	_, _, es, err = a.LoadTable(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	sameEntries(t, es, want)

	// A takes it back: B is fenced in turn, A appends.
	if _, _, _, err := a.Claim(ctx, "t"); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, "t", want[0]); !errors.Is(err, host.ErrFenced) {
		t.Fatalf("Append of B after A claimed back = %v, want ErrFenced", err)
	}
	if err := a.Append(ctx, "t", want[0]); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := b.Claim(ctx, "nope"); !errors.Is(err, host.ErrNoTable) {
		t.Fatalf("Claim of an unknown table = %v, want ErrNoTable", err)
	}
}

// TestClaimRace has two nodes claim one table at once, each then
// appending: exactly the appends of the last claimant after its claim
// go through, and the log reads back whole.
func TestClaimRace(t *testing.T) {
	c := newCluster(t, 3)
	ctx := context.Background()
	nodes := []*Store[move]{
		open[move](t, c, 0, "riichi", moveCodec{}, WithNodeID("A")),
		open[move](t, c, 1, "riichi", moveCodec{}, WithNodeID("B")),
		open[move](t, c, 2, "riichi", moveCodec{}, WithNodeID("C")),
	}
	if err := nodes[0].Create(ctx, record("t")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	stored := 0
	for i, s := range nodes {
		wg.Go(func() {
			for k := range 10 {
				if _, _, _, err := s.Claim(ctx, "t"); err != nil {
					t.Errorf("Claim of node %d: %v", i, err)
					return
				}
				err := s.Append(ctx, "t", host.Entry[move]{At: t0, Kind: host.EntryAction, Action: move{uint8(i), uint8(k)}})
				switch {
				case err == nil:
					mu.Lock()
					stored++
					mu.Unlock()
				case !errors.Is(err, host.ErrFenced):
					t.Errorf("Append of node %d: %v", i, err)
				}
			}
		})
	}
	wg.Wait()
	_, _, es, err := nodes[0].LoadTable(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != stored || stored == 0 {
		t.Fatalf("log of %d entries, %d appends acknowledged", len(es), stored)
	}
}

// TestLostAck loses the acknowledgement of an append that JetStream
// stored: the store sends the same message again, JetStream drops it as
// a duplicate (Nats-Msg-Id) and acknowledges it, and the log holds the
// entries once.
func TestLostAck(t *testing.T) {
	c := newCluster(t, 3)
	s := open[move](t, c, 0, "riichi", moveCodec{})
	ctx := context.Background()
	if err := s.Create(ctx, record("t")); err != nil {
		t.Fatal(err)
	}
	real := s.publish
	var mu sync.Mutex
	lost, sent := 0, 0
	s.publish = func(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
		ack, err := real(ctx, m, opts...)
		mu.Lock()
		defer mu.Unlock()
		sent++
		if err == nil && lost < 2 {
			lost++
			return nil, fmt.Errorf("lost ack: %w", context.DeadlineExceeded)
		}
		return ack, err
	}
	want := sampleEntries()
	if err := s.Append(ctx, "t", want[:2]...); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "t", want[2:]...); err != nil {
		t.Fatal(err)
	}
	if sent != 4 || lost != 2 {
		t.Fatalf("%d sends, %d acks lost; want 4 and 2", sent, lost)
	}
	if n := logMessages(t, s, "t"); n != 2 {
		t.Fatalf("log of %d messages, want 2", n)
	}
	_, _, es, err := s.LoadTable(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	sameEntries(t, es, want)
}

// TestLateAppend has an append fail for this node (every ack lost until
// its deadline) while JetStream stored it after all: the node's memory is
// behind its log, so its next append fails as fenced, storing nothing,
// and a claim reads the entries it did not know of.
func TestLateAppend(t *testing.T) {
	c := newCluster(t, 3)
	s := open[move](t, c, 0, "riichi", moveCodec{}, WithTimeout(time.Second))
	ctx := context.Background()
	if err := s.Create(ctx, record("t")); err != nil {
		t.Fatal(err)
	}
	real := s.publish
	s.publish = func(ctx context.Context, m *nats.Msg, opts ...jetstream.PublishOpt) (*jetstream.PubAck, error) {
		if _, err := real(ctx, m, opts...); err != nil {
			return nil, err
		}
		return nil, errors.New("connection lost")
	}
	want := sampleEntries()
	if err := s.Append(ctx, "t", want[:2]...); err == nil || errors.Is(err, host.ErrFenced) {
		t.Fatalf("Append with every ack lost = %v, want a failure", err)
	}
	s.publish = real
	if err := s.Append(ctx, "t", want[:2]...); !errors.Is(err, host.ErrFenced) {
		t.Fatalf("Append after an append that landed late = %v, want ErrFenced", err)
	}
	_, _, es, err := s.Claim(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	sameEntries(t, es, want[:2])
	if err := s.Append(ctx, "t", want[2:]...); err != nil {
		t.Fatal(err)
	}
	if _, _, es, _ = s.LoadTable(ctx, "t"); len(es) != len(want) {
		t.Fatalf("log of %d entries, want %d", len(es), len(want))
	}
}

// FuzzDecodeBatch feeds the decoder of log messages anything: it must not
// panic, and what it decodes must encode to a message that decodes the
// same.
func FuzzDecodeBatch(f *testing.F) {
	s := &Store[move]{codec: moveCodec{}}
	es := sampleEntries()
	for i := range es {
		b, err := s.encodeBatch(es[i:])
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte{batchVersion, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, n, err := s.decodeBatch(nil, b)
		if err != nil {
			if !errors.Is(err, store.ErrCorrupt) && !errors.Is(err, host.ErrCorruptLog) {
				t.Fatalf("error %v does not say the log is corrupt", err)
			}
			return
		}
		if n != len(got) {
			t.Fatalf("%d entries decoded, %d counted", len(got), n)
		}
		again, err := s.encodeBatch(got)
		if err != nil {
			t.Fatalf("decoded entries do not encode: %v", err)
		}
		back, _, err := s.decodeBatch(nil, again)
		if err != nil || !reflect.DeepEqual(back, got) {
			t.Fatalf("re-encoded batch decodes as %+v, %v; want %+v", back, err, got)
		}
	})
}

// TestLoadSetsDamagedAside has one table's log hold a message that does
// not decode: Load passes the other tables and returns a DamagedError
// for that one, and LoadTable says it is corrupt; once the table is
// finished, Load does not read it (no error).
func TestLoadSetsDamagedAside(t *testing.T) {
	c := newCluster(t, 3)
	s := open[move](t, c, 0, "riichi", moveCodec{})
	ctx := context.Background()
	for _, id := range []string{"good", "bad"} {
		if err := s.Create(ctx, record(id)); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, id, sampleEntries()...); err != nil {
			t.Fatal(err)
		}
	}
	m := nats.NewMsg(s.subject("log", "bad"))
	m.Header.Set(hdrEntries, "6")
	m.Data = []byte{batchVersion, 1, 3, 9, 9, 9}
	if _, err := s.js.PublishMsg(ctx, m); err != nil {
		t.Fatal(err)
	}
	var ids []string
	err := open[move](t, c, 1, "riichi", moveCodec{}).Load(ctx, func(rec host.TableRecord, _ *host.TableSnapshot, _ []host.Entry[move]) error {
		ids = append(ids, rec.ID)
		return nil
	})
	var damaged *host.DamagedError
	if !errors.As(err, &damaged) || damaged.ID != "bad" || !errors.Is(err, host.ErrCorruptLog) {
		t.Fatalf("Load = %v, want a DamagedError of table bad", err)
	}
	if !reflect.DeepEqual(ids, []string{"good"}) {
		t.Fatalf("Load passed %v, want good", ids)
	}
	if _, _, _, err := s.LoadTable(ctx, "bad"); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("LoadTable of the damaged table = %v, want ErrCorrupt", err)
	}
	// Once finished, Load does not read it at all.
	if err := s.Finish(ctx, "bad", t0); err != nil {
		t.Fatal(err)
	}
	if ids, _, _ := loadAll(t, s); !reflect.DeepEqual(ids, []string{"good"}) {
		t.Fatalf("Load passed %v, want good", ids)
	}
}
