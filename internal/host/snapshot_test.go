package host_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/clock"
	"github.com/mahjong-authority/authority/internal/host"
)

// spyStore is a MemoryStore that counts the reads recovery and archived
// streams make, and refuses snapshots on demand.
type spyStore struct {
	*host.MemoryStore[toyAction]
	entries, events atomic.Int32
	refuseSnaps     atomic.Bool
	saved           atomic.Int32
}

func (s *spyStore) LoadEntries(ctx context.Context, table string, from uint64) ([]host.Entry[toyAction], error) {
	s.entries.Add(1)
	return s.MemoryStore.LoadEntries(ctx, table, from)
}

func (s *spyStore) LoadEvents(ctx context.Context, table string, entries uint64) ([]byte, error) {
	s.events.Add(1)
	return s.MemoryStore.LoadEvents(ctx, table, entries)
}

func (s *spyStore) SaveSnapshot(ctx context.Context, table string, snap host.TableSnapshot) error {
	if s.refuseSnaps.Load() {
		return errors.New("disk full")
	}
	s.saved.Add(1)
	return s.MemoryStore.SaveSnapshot(ctx, table, snap)
}

// withoutSnapshots copies a store's tables and logs, leaving the snapshots
// out: the same tables as a store written before snapshots existed.
func withoutSnapshots(t *testing.T, st host.Store[toyAction]) *host.MemoryStore[toyAction] {
	t.Helper()
	ctx := context.Background()
	plain := host.NewMemoryStore[toyAction]()
	err := st.Load(ctx, func(rec host.TableRecord, _ *host.TableSnapshot, _ []host.Entry[toyAction]) error {
		es, err := st.LoadEntries(ctx, rec.ID, 0)
		if err != nil {
			return err
		}
		if err := plain.Create(ctx, rec); err != nil {
			return err
		}
		return plain.Append(ctx, rec.ID, es...)
	})
	if err != nil {
		t.Fatal(err)
	}
	return plain
}

// snapTable is a table of three players and a bot with a claim dwell, on
// a host that takes snapshots.
type snapTable struct {
	*fixture
	n int // requests sent, for fresh ids
}

var snapSettings = host.Settings{Seats: 4, TurnTime: 10 * time.Second, ClaimTime: 5 * time.Second, ClaimDwell: time.Second, FillWithBots: true}

func toyConfig(clk clock.Clock, st host.Store[toyAction]) host.Config[toyAction, toyView, string] {
	return host.Config[toyAction, toyView, string]{
		Clock: clk, Store: st, Codec: toyCodec{},
		Bot: func() host.Bot[toyAction, toyView] { return maxBot{} },
	}
}

func newSnapTable(t *testing.T, st host.Store[toyAction], rounds int) *snapTable {
	t.Helper()
	return snapTableOn(t, st, rounds, toyCodec{})
}

// snapTableOn is a started toy table of the given rounds on a host with
// store st and codec (nil: the host takes no snapshot).
func snapTableOn(t *testing.T, st host.Store[toyAction], rounds int, codec host.Codec[toyAction, string]) *snapTable {
	t.Helper()
	f := &fixture{t: t, clk: clock.NewFake(time.Unix(1_700_000_000, 0))}
	cfg := toyConfig(f.clk, st)
	cfg.Codec = codec
	f.h = host.New(cfg)
	info, owner, err := f.h.Create(context.Background(), snapSettings, []byte("meta"), newToy(rounds))
	if err != nil {
		t.Fatal(err)
	}
	f.id, f.owner = info.ID, owner
	f.join(3)
	if err := f.h.Start(context.Background(), f.id, owner); err != nil {
		t.Fatal(err)
	}
	return &snapTable{fixture: f}
}

// round is the toy's round, read in the table's goroutine.
func (s *snapTable) round() int {
	var r int
	if err := s.h.Inspect(context.Background(), s.id, func(g host.Game[toyAction, toyView, string]) error {
		r = g.(*toy).round
		return nil
	}); err != nil {
		s.t.Fatal(err)
	}
	return r
}

// game is a copy of the table's toy.
func (s *snapTable) game() toy {
	var g toy
	if err := s.h.Inspect(context.Background(), s.id, func(hg host.Game[toyAction, toyView, string]) error {
		g = *hg.(*toy)
		return nil
	}); err != nil {
		s.t.Fatal(err)
	}
	return g
}

// playUntil plays the three players' turns (two points each, passing every
// offer), moving the clock through the claim dwells, until stop says so
// or the game ends. It returns the request ids it used and their answers.
func (s *snapTable) playUntil(stop func() bool) map[string]uint64 {
	s.t.Helper()
	acked := map[string]uint64{}
	for i := 0; s.info().State == host.Playing && !stop(); i++ {
		if i > 1000 {
			s.t.Fatal("game does not end")
		}
		acted, held := false, false
		for seat := range 3 {
			for _, a := range []toyAction{{Seat: seat, Kind: "play", N: 2}, {Seat: seat, Kind: "pass"}} {
				s.n++
				id := fmt.Sprintf("client-%d-request-%d", seat, s.n)
				seq, err := s.act(seat, id, s.seq(seat), a)
				if err == nil {
					acked[id], acted = seq, true
					break
				}
				held = held || errors.Is(err, host.ErrWindowOpen)
			}
			if acted {
				break
			}
		}
		if !acted {
			if s.info().State != host.Playing {
				break // the game ended behind a dwell
			}
			if !held {
				s.t.Fatalf("nobody could act in %+v", s.info())
			}
			s.clk.Advance(time.Second)
			if !s.async {
				s.h.WaitSnapshots(s.id)
			}
		}
	}
	return acked
}

// streams returns every seat's events from after (its own numbering) up to
// its newest, and the spectators' from after up to theirs, as strings.
func streams(t *testing.T, h *toyHost, id string, tokens [4]string, after uint64) [][]string {
	t.Helper()
	ctx := context.Background()
	var out [][]string
	for s := range 3 {
		n, err := h.SeatSeq(ctx, id, tokens[s])
		if err != nil {
			t.Fatal(err)
		}
		rctx, cancel := context.WithCancel(ctx)
		r := record(rctx, h, id, tokens[s], after)
		r.waitLen(t, int(n-after))
		cancel()
		<-r.done
		out = append(out, r.got()[:n-after])
	}
	in, err := h.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var pub []string
	enough := make(chan struct{}) // closed when the spectators have every event
	if after >= in.LastSeq {
		close(enough)
	}
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- h.Watch(wctx, id, after, func(e *host.Event[string]) error {
			mu.Lock()
			defer mu.Unlock()
			if e.Notice != nil {
				pub = append(pub, fmt.Sprintf("%d@%d:%s/%d", e.Seq, e.At.UnixMilli(), e.Notice.Kind, e.Notice.Seat))
			} else {
				pub = append(pub, fmt.Sprintf("%d@%d:%s", e.Seq, e.At.UnixMilli(), e.Body))
			}
			if uint64(len(pub))+after == in.LastSeq {
				close(enough)
			}
			return nil
		})
	}()
	select {
	case <-enough:
	case err := <-done:
		select {
		case <-enough: // the game ended: the stream did too, after every event
			done <- err
		default:
			t.Fatalf("spectators: the stream ended (%v) before %d events after %d", err, in.LastSeq, after)
		}
	case <-time.After(10 * time.Second):
		mu.Lock()
		defer mu.Unlock()
		t.Fatalf("spectators: %d events after %d, want up to %d", len(pub), after, in.LastSeq)
	}
	cancel()
	<-done
	mu.Lock()
	defer mu.Unlock()
	return append(out, pub[:in.LastSeq-after])
}

// recoverOn starts a host on st at time now and recovers its tables.
func recoverOn(t *testing.T, st host.Store[toyAction], now time.Time, f *fixture) *snapTable {
	t.Helper()
	return recoverGame(t, st, now, f, 4)
}

// recoverGame is recoverOn for a toy of the given rounds.
func recoverGame(t *testing.T, st host.Store[toyAction], now time.Time, f *fixture, rounds int) *snapTable {
	t.Helper()
	clk := clock.NewFake(now)
	h := host.New(toyConfig(clk, st))
	t.Cleanup(h.Close)
	n, err := h.Recover(context.Background(), func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) {
		return newToy(rounds), nil
	})
	if err != nil || n != 1 {
		t.Fatalf("Recover = %d, %v; want 1 table", n, err)
	}
	g := *f
	g.t, g.h, g.clk = t, h, clk
	return &snapTable{fixture: &g, n: 100000}
}

// TestRecoverFromSnapshot stops a host in the third of four rounds, in a
// claim dwell, and recovers the table twice: from its latest snapshot and
// the entries after it, and from the whole log of a copy of the store
// without snapshots. Both give the table as it was - every seat's and the
// spectators' numbered events (those before the snapshot read back from
// the store), answers to retried requests, the dwell - and play on to the
// same end.
func TestRecoverFromSnapshot(t *testing.T) {
	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 4)
	acked := a.playUntil(func() bool { return a.round() >= 3 })
	more := a.playUntil(func() bool { return a.game().total >= 4 })
	for id, seq := range more {
		acked[id] = seq
	}
	if st.saved.Load() < 2 {
		t.Fatalf("%d snapshots saved after two rounds, want 2 at least", st.saved.Load())
	}
	snap, ok := st.Snapshot(a.id)
	if !ok || snap.Entries >= uint64(len(st.Entries(a.id))) {
		t.Fatalf("latest snapshot %v at %d of %d entries", ok, snap.Entries, len(st.Entries(a.id)))
	}
	want := streams(t, a.h, a.id, a.tokens, 1)
	wantGame := a.game()
	a.h.Close()
	plain := withoutSnapshots(t, st.MemoryStore)

	fromSnap := recoverOn(t, st, a.clk.Now().Add(time.Minute), a.fixture)
	if n := st.entries.Load(); n != 0 {
		t.Fatalf("recovery from a snapshot read the whole log %d times", n)
	}
	fromLog := recoverOn(t, plain, a.clk.Now().Add(time.Minute), a.fixture)
	for name, b := range map[string]*snapTable{"snapshot": fromSnap, "log": fromLog} {
		if g := b.game(); g != wantGame {
			t.Fatalf("from the %s: game %+v, want %+v", name, g, wantGame)
		}
		got := streams(t, b.h, b.id, b.tokens, 1)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("from the %s: streams\n%v\nwant\n%v", name, got, want)
		}
		// A resume from the middle of the archive.
		for s, w := range want {
			if len(w) < 10 {
				t.Fatalf("viewer %d has %d events", s, len(w))
			}
		}
		mid := streams(t, b.h, b.id, b.tokens, 7)
		for s := range mid {
			if !slices.Equal(mid[s], want[s][6:]) {
				t.Fatalf("from the %s: viewer %d after 7:\n%v\nwant\n%v", name, s, mid[s], want[s][6:])
			}
		}
		// Every acknowledged request is answered again as it was.
		for id, seq := range acked {
			var seat int
			fmt.Sscanf(id, "client-%d-", &seat)
			got, err := b.act(seat, id, 0, toyAction{Seat: seat, Kind: "play", N: 2})
			if errors.Is(err, host.ErrRequestIDReused) {
				got, err = b.act(seat, id, 0, toyAction{Seat: seat, Kind: "pass"})
			}
			if err != nil || got != seq {
				t.Fatalf("from the %s: retried %s = %d, %v; want %d", name, id, got, err, seq)
			}
		}
		// The dwell of the last play is on again: a seat the window does
		// not wait for may not act.
		other := 0
		for other == b.game().claimer || other == b.game().turn {
			other++
		}
		if _, err := b.act(other, "new", b.seq(other), toyAction{Seat: other, Kind: "play", N: 1}); !errors.Is(err, host.ErrWindowOpen) {
			t.Fatalf("from the %s: act in the recovered dwell = %v, want ErrWindowOpen", name, err)
		}
	}
	if st.events.Load() == 0 {
		t.Fatal("streams from the start read no archived events")
	}
	fromSnap.playUntil(func() bool { return false })
	fromLog.playUntil(func() bool { return false })
	end := streams(t, fromSnap.h, fromSnap.id, fromSnap.tokens, 1)
	if got := streams(t, fromLog.h, fromLog.id, fromLog.tokens, 1); !slices.EqualFunc(got, end, slices.Equal) {
		t.Fatalf("played on from the snapshot:\n%v\nfrom the log:\n%v", end, got)
	}
	if fromSnap.game() != fromLog.game() || !fromSnap.game().over {
		t.Fatalf("games at the end: %+v and %+v", fromSnap.game(), fromLog.game())
	}
}

// TestRecoverSnapshotFallback: a snapshot that does not restore - damaged
// bytes, an unknown version, a game state the game refuses - costs only
// time: the table is rebuilt from its whole log, as it was.
func TestRecoverSnapshotFallback(t *testing.T) {
	for _, c := range []struct {
		name   string
		damage func(state []byte) []byte
	}{
		{"a flipped bit", func(b []byte) []byte { b[len(b)/2] ^= 4; return b }},
		{"an unknown version", func(b []byte) []byte { b[0] = 99; return b }},
		{"truncated", func(b []byte) []byte { return b[:len(b)-3] }},
		{"empty", func([]byte) []byte { return nil }},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
			a := newSnapTable(t, st, 4)
			a.playUntil(func() bool { return a.round() >= 3 && a.game().total >= 2 })
			want := streams(t, a.h, a.id, a.tokens, 1)
			wantGame := a.game()
			a.h.Close()
			snap, ok := st.Snapshot(a.id)
			if !ok {
				t.Fatal("no snapshot")
			}
			st.SetSnapshotState(a.id, c.damage(slices.Clone(snap.State)))
			b := recoverOn(t, st, a.clk.Now(), a.fixture)
			if n := st.entries.Load(); n != 1 {
				t.Fatalf("the whole log read %d times, want once", n)
			}
			if g := b.game(); g != wantGame {
				t.Fatalf("game %+v, want %+v", g, wantGame)
			}
			if got := streams(t, b.h, b.id, b.tokens, 1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("streams\n%v\nwant\n%v", got, want)
			}
			// It takes snapshots again, which restore.
			b.playUntil(func() bool { return b.round() >= 4 && b.game().total >= 2 })
			want = streams(t, b.h, b.id, b.tokens, 1)
			b.h.Close()
			st.entries.Store(0)
			d := recoverOn(t, st, b.clk.Now(), b.fixture)
			if n := st.entries.Load(); n != 0 {
				t.Fatalf("after the fallback, the next snapshot does not restore (the log read %d times)", n)
			}
			if got := streams(t, d.h, d.id, d.tokens, 1); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("from the snapshot after the fallback:\n%v\nwant\n%v", got, want)
			}
		})
	}
}

// TestSnapshotRefused: a store that refuses a snapshot loses nothing; the
// next snapshot's events start after the last one stored.
func TestSnapshotRefused(t *testing.T) {
	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 4)
	a.playUntil(func() bool { return a.round() >= 2 })
	st.refuseSnaps.Store(true)
	a.playUntil(func() bool { return a.round() >= 3 })
	st.refuseSnaps.Store(false)
	a.playUntil(func() bool { return a.round() >= 4 && a.game().total >= 2 })
	if n := st.saved.Load(); n != 2 {
		t.Fatalf("%d snapshots stored, want 2 (after rounds 1 and 3)", n)
	}
	want := streams(t, a.h, a.id, a.tokens, 1)
	a.h.Close()
	b := recoverOn(t, st, a.clk.Now(), a.fixture)
	if n := st.entries.Load(); n != 0 {
		t.Fatalf("the whole log read %d times", n)
	}
	if got := streams(t, b.h, b.id, b.tokens, 1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("streams\n%v\nwant\n%v", got, want)
	}
}

// withCRC sets the CRC-32C of a snapshot state or segment, so that the
// fuzzer's changes reach the decoder.
func withCRC(b []byte) []byte {
	if len(b) >= 5 {
		binary.BigEndian.PutUint32(b[1:5], crc32.Checksum(b[5:], crc32.MakeTable(crc32.Castagnoli)))
	}
	return b
}

// FuzzSnapshotState recovers a table from a snapshot whose state or
// events the fuzzer changed (checksums fixed up): nothing may panic; the
// table comes back (from the snapshot, or from the log when the snapshot
// is refused), and a stream from its start either gets every event or
// ends with ErrUnavailable (events that do not decode).
func FuzzSnapshotState(f *testing.F) {
	base := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(&testing.T{}, base, 4)
	a.playUntil(func() bool { return a.round() >= 3 && a.game().total >= 2 })
	a.h.Close()
	snap, ok := base.Snapshot(a.id)
	if !ok {
		f.Fatal("no snapshot")
	}
	events, err := base.LoadEvents(context.Background(), a.id, snap.Entries)
	if err != nil {
		f.Fatal(err)
	}
	log := base.Entries(a.id)
	var rec host.TableRecord
	_ = base.Load(context.Background(), func(r host.TableRecord, _ *host.TableSnapshot, _ []host.Entry[toyAction]) error {
		rec = r
		return nil
	})
	// The fuzzer's input is a patch of the table's own state or events:
	// the table (its id, its tokens) is made anew in each fuzzing process.
	f.Add(uint16(0), []byte{}, uint16(0), false)
	f.Add(uint16(40), []byte{0xff, 7}, uint16(0), false)
	f.Add(uint16(9), []byte{3}, uint16(2), true)
	f.Fuzz(func(t *testing.T, at uint16, patch []byte, cut uint16, segment bool) {
		ctx := context.Background()
		st := host.NewMemoryStore[toyAction]()
		_ = st.Create(ctx, rec)
		_ = st.Append(ctx, rec.ID, log...)
		sn := host.TableSnapshot{Entries: snap.Entries, State: snap.State, Events: events}
		b := &sn.State
		if segment {
			b = &sn.Events
		}
		raw := slices.Clone(*b)
		if n := len(raw) - 5; n > 0 {
			copy(raw[5+int(at)%n:], patch)
			raw = raw[:len(raw)-int(cut)%n]
		}
		*b = withCRC(raw)
		if err := st.SaveSnapshot(ctx, rec.ID, sn); err != nil {
			t.Fatal(err)
		}
		h := host.New(toyConfig(clock.NewFake(a.clk.Now()), st))
		defer h.Close()
		if n, err := h.Recover(ctx, func(host.TableRecord) (host.NewGame[toyAction, toyView, string], error) { return newToy(4), nil }); err != nil || n != 1 {
			t.Fatalf("Recover = %d, %v", n, err)
		}
		head, err := h.SeatSeq(ctx, rec.ID, a.tokens[0])
		if errors.Is(err, host.ErrWrongToken) {
			return // a state that checks out, with another token hash
		}
		if err != nil {
			t.Fatalf("SeatSeq: %v", err)
		}
		got := uint64(1)
		sctx, cancel := context.WithCancel(ctx)
		defer cancel()
		err = h.Follow(sctx, rec.ID, a.tokens[0], 1, func(it host.Item[toyView, string]) error {
			if got++; got == head {
				cancel()
			}
			return nil
		})
		if got < head && !errors.Is(err, host.ErrUnavailable) {
			t.Fatalf("stream ended at %d of %d: %v", got, head, err)
		}
	})
}

// TestLiveArchive plays the same game on a host that takes snapshots - a
// game in play then keeps only the round in progress in memory, the
// earlier rounds in the store - and on one that takes none, and checks
// that mid-game every viewer's stream, from the start and from the middle
// of an archived round, is the same on both; and that a stream open
// through the rounds sees every event once.
func TestLiveArchive(t *testing.T) {
	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 5)
	t.Cleanup(a.h.Close)
	ctx, cancel := context.WithCancel(context.Background())
	early := record(ctx, a.h, a.id, a.tokens[0], 1)
	t.Cleanup(func() { cancel(); <-early.done })
	early.waitLen(t, 1)
	a.playUntil(func() bool { return a.round() >= 3 })
	if st.saved.Load() < 2 {
		t.Fatalf("%d snapshots saved after two rounds, want 2 at least", st.saved.Load())
	}

	b := unsnappedTable(t, 5)
	b.playUntil(func() bool { return b.round() >= 3 })

	if a.info().State != host.Playing || b.info().State != host.Playing {
		t.Fatalf("states %v and %v, want both playing", a.info().State, b.info().State)
	}
	for _, after := range []uint64{1, 7} {
		got, want := streams(t, a.h, a.id, a.tokens, after), streams(t, b.h, b.id, b.tokens, after)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("after %d: streams with snapshots\n%v\nwithout\n%v", after, got, want)
		}
	}
	n, err := a.h.SeatSeq(context.Background(), a.id, a.tokens[0])
	if err != nil {
		t.Fatal(err)
	}
	early.waitLen(t, int(n)-1)
	if got, want := early.got(), streams(t, b.h, b.id, b.tokens, 1)[0]; !slices.Equal(got, want) {
		t.Fatalf("the stream open through the rounds:\n%v\nwant\n%v", got, want)
	}
}

// TestFinishedArchive plays the same game to its end on a host that
// takes snapshots and on one that takes none: the finished table of the
// first keeps no event in memory that its last snapshot holds (it stays
// in memory for FinishedTTL), and every viewer's stream, from the start
// and from the middle, is the same on both. A retry of the last request
// is answered as it was.
func TestFinishedArchive(t *testing.T) {
	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 3)
	t.Cleanup(a.h.Close)
	acked := a.playUntil(func() bool { return false })
	a.h.WaitSnapshots(a.id)

	b := unsnappedTable(t, 3)
	b.playUntil(func() bool { return false })

	if a.info().State != host.Finished || b.info().State != host.Finished {
		t.Fatalf("states %v and %v, want both finished", a.info().State, b.info().State)
	}
	if n, archived := a.h.InMemory(a.id); n != 0 || archived == 0 {
		t.Errorf("the finished table holds %d events in memory, %d archived; want 0 and all", n, archived)
	}
	if n, archived := b.h.InMemory(b.id); n == 0 || archived != 0 {
		t.Errorf("without snapshots: %d events in memory, %d archived", n, archived)
	}
	for _, after := range []uint64{1, 7} {
		got, want := streams(t, a.h, a.id, a.tokens, after), streams(t, b.h, b.id, b.tokens, after)
		if !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("after %d: streams with snapshots\n%v\nwithout\n%v", after, got, want)
		}
	}
	last, lastSeq := "", uint64(0)
	for id, seq := range acked {
		if seq >= lastSeq {
			last, lastSeq = id, seq
		}
	}
	var seat, n int
	if _, err := fmt.Sscanf(last, "client-%d-request-%d", &seat, &n); err != nil {
		t.Fatal(err)
	}
	for _, act := range []toyAction{{Seat: seat, Kind: "play", N: 2}, {Seat: seat, Kind: "pass"}} {
		if seq, err := a.act(seat, last, 0, act); err == nil {
			if seq != lastSeq {
				t.Fatalf("retry of %s = seq %d, want %d", last, seq, lastSeq)
			}
			return
		}
	}
	t.Fatalf("no retry of %s was answered as it was", last)
}

// TestRestoreOldVersions recovers a table from snapshots that the host
// wrote in an older state version (testdata/snapshot-vN.json, made by
// that host with the fixtures of this file - TestWriteSnapshotTestdata -
// with its log, its tokens, the answers it gave and every viewer's
// events): version 2 kept the dedupe windows' ids themselves, version 3
// their 128-bit digests and the actions. The snapshot restores (the whole
// log is never read), every viewer's events are as they were, and every
// request it acknowledged is answered again as it was - the ids and
// actions read from the old encoding match the same ones sent now - while
// an id reused for another action is refused.
func TestRestoreOldVersions(t *testing.T) {
	for _, v := range []byte{2, 3} {
		t.Run(fmt.Sprint("v", v), func(t *testing.T) { restoreVersion(t, v) })
	}
}

func restoreVersion(t *testing.T, version byte) {
	raw, err := os.ReadFile(fmt.Sprintf("testdata/snapshot-v%d.json", version))
	if err != nil {
		t.Fatal(err)
	}
	var old struct {
		Record    host.TableRecord
		Log       []host.Entry[toyAction]
		Snapshots []host.TableSnapshot
		Tokens    [4]string
		Now       time.Time
		Acked     map[string]uint64
		Streams   [][]string
	}
	if err := json.Unmarshal(raw, &old); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	if err := st.Create(ctx, old.Record); err != nil {
		t.Fatal(err)
	}
	if err := st.Append(ctx, old.Record.ID, old.Log...); err != nil {
		t.Fatal(err)
	}
	for _, sn := range old.Snapshots {
		if sn.State[0] != version {
			t.Fatalf("testdata: a snapshot of version %d", sn.State[0])
		}
		if err := st.SaveSnapshot(ctx, old.Record.ID, sn); err != nil {
			t.Fatal(err)
		}
	}
	b := recoverOn(t, st, old.Now, &fixture{id: old.Record.ID, tokens: old.Tokens})
	if n := st.entries.Load(); n != 0 {
		t.Fatalf("the version %d snapshot did not restore: the whole log read %d times", version, n)
	}
	if got := streams(t, b.h, b.id, b.tokens, 1); !slices.EqualFunc(got, old.Streams, slices.Equal) {
		t.Fatalf("streams\n%v\nwant\n%v", got, old.Streams)
	}
	if len(old.Acked) < 10 {
		t.Fatalf("testdata: %d requests acknowledged", len(old.Acked))
	}
	before := 0
	for id, seq := range old.Acked {
		var seat, n int
		fmt.Sscanf(id, "client-%d-request-%d", &seat, &n)
		play, pass := toyAction{Seat: seat, Kind: "play", N: 2}, toyAction{Seat: seat, Kind: "pass"}
		got, err := b.act(seat, id, 0, play)
		if errors.Is(err, host.ErrRequestIDReused) {
			play, pass = pass, play
			got, err = b.act(seat, id, 0, play)
		}
		if err != nil || got != seq {
			t.Fatalf("retried %s = %d, %v; want %d", id, got, err, seq)
		}
		if _, err := b.act(seat, id, 0, pass); !errors.Is(err, host.ErrRequestIDReused) {
			t.Fatalf("%s reused for another action: %v, want ErrRequestIDReused", id, err)
		}
		if i := slices.IndexFunc(old.Log, func(e host.Entry[toyAction]) bool { return e.RequestID == id }); i < int(old.Snapshots[len(old.Snapshots)-1].Entries) {
			before++ // only the snapshot's window holds its answer
		}
	}
	if before == 0 {
		t.Fatal("testdata: no request answered before the latest snapshot")
	}
}

// blockStore is a MemoryStore whose snapshot writes wait until released.
type blockStore struct {
	*host.MemoryStore[toyAction]
	began   chan uint64 // the Entries of every write that began
	release chan struct{}
	once    sync.Once
	refuse  atomic.Bool
	saved   atomic.Int32
}

func newBlockStore() *blockStore {
	return &blockStore{MemoryStore: host.NewMemoryStore[toyAction](), began: make(chan uint64, 16), release: make(chan struct{})}
}

// open lets every write through from now on.
func (s *blockStore) open() { s.once.Do(func() { close(s.release) }) }

// closeAfter closes h at the end of the test, after opening the store:
// Close waits for a write in flight.
func (s *blockStore) closeAfter(t *testing.T, h *toyHost) {
	t.Cleanup(func() {
		s.open()
		h.Close()
	})
}

func (s *blockStore) SaveSnapshot(ctx context.Context, table string, snap host.TableSnapshot) error {
	s.began <- snap.Entries
	<-s.release
	if s.refuse.Load() {
		return errors.New("disk full")
	}
	s.saved.Add(1)
	return s.MemoryStore.SaveSnapshot(ctx, table, snap)
}

// TestSnapshotWriteOffPath: a snapshot write that the store holds up
// holds nothing else up. The table plays on - five more rounds - while
// the write waits, with no second write meanwhile: the snapshots of the
// next boundaries wait, the last of host.MaxWaiting replaced by the
// newest. Once the store answers, they are stored in order and the table
// leaves the events they hold to the store (its archive), every stream
// reading the same events as before; the table recovers from the last.
func TestSnapshotWriteOffPath(t *testing.T) {
	st := newBlockStore()
	const rounds = host.MaxWaiting + 4
	a := newSnapTable(t, st, rounds)
	a.async = true
	st.closeAfter(t, a.h)
	a.playUntil(func() bool { return a.round() >= 2 })
	var first uint64
	select {
	case first = <-st.began:
	case <-time.After(10 * time.Second):
		t.Fatal("no snapshot write after round 1")
	}
	// Rounds 2 to MaxWaiting+2 end while the write waits.
	acked := a.playUntil(func() bool { return a.round() >= rounds-1 && a.game().total >= 2 })
	if len(acked) < 5*host.MaxWaiting {
		t.Fatalf("%d actions accepted while the snapshot write waited", len(acked))
	}
	if _, ok := st.Snapshot(a.id); ok || len(st.began) != 0 {
		t.Fatalf("a snapshot stored (%v) or another write begun (%d) while the first waits", ok, len(st.began))
	}
	held, archived := a.h.InMemory(a.id)
	if archived != 0 {
		t.Fatalf("%d events archived before the snapshot is stored", archived)
	}
	want := streams(t, a.h, a.id, a.tokens, 1)
	entries := uint64(len(st.Entries(a.id)))

	st.open()
	a.h.WaitSnapshots(a.id)
	if n := st.saved.Load(); n != 1+host.MaxWaiting {
		t.Fatalf("%d snapshots stored, want %d (round 1's, then those waiting, the last two rounds' in one)", n, 1+host.MaxWaiting)
	}
	for prev := first; len(st.began) > 0; {
		at := <-st.began
		if at <= prev || at >= entries {
			t.Fatalf("a snapshot at %d written after one at %d (%d entries)", at, prev, entries)
		}
		prev = at
	}
	n, archived := a.h.InMemory(a.id)
	if archived == 0 || n >= held {
		t.Fatalf("after the writes: %d events in memory and %d archived, before them %d and 0", n, archived, held)
	}
	if got := streams(t, a.h, a.id, a.tokens, 1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("streams after the archive\n%v\nbefore\n%v", got, want)
	}
	if got := streams(t, a.h, a.id, a.tokens, 7); !slices.EqualFunc(got, streamsAfter(want, 6), slices.Equal) {
		t.Fatalf("streams after 7 from the archive\n%v\nwant\n%v", got, streamsAfter(want, 6))
	}
	a.h.Close()
	b := recoverGame(t, st, a.clk.Now(), a.fixture, rounds)
	if got := streams(t, b.h, b.id, b.tokens, 1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("recovered streams\n%v\nwant\n%v", got, want)
	}
}

// TestSnapshotRefusedWhileOneWaits: the store refuses a write while the
// next snapshot waits for it; the one waiting, whose chain holds the
// refused one, is dropped, and the next boundary's snapshot holds every
// event since the last one stored: the table recovers from it as it was.
func TestSnapshotRefusedWhileOneWaits(t *testing.T) {
	st := newBlockStore()
	const rounds = 6
	a := newSnapTable(t, st, rounds)
	a.async = true
	st.closeAfter(t, a.h)
	a.playUntil(func() bool { return a.round() >= 3 })
	<-st.began // round 1's; round 2's waits behind it
	st.refuse.Store(true)
	st.open()
	a.h.WaitSnapshots(a.id)
	if n := st.saved.Load(); n != 0 || len(st.began) != 0 {
		t.Fatalf("%d snapshots stored and %d more writes after a refusal, want none", n, len(st.began))
	}
	st.refuse.Store(false)
	a.async = false
	a.playUntil(func() bool { return a.round() >= 4 && a.game().total >= 2 })
	if n := st.saved.Load(); n != 1 {
		t.Fatalf("%d snapshots stored, want 1 (round 3's)", n)
	}
	want := streams(t, a.h, a.id, a.tokens, 1)
	a.h.Close()
	b := recoverGame(t, st, a.clk.Now(), a.fixture, rounds)
	if got := streams(t, b.h, b.id, b.tokens, 1); !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("recovered streams\n%v\nwant\n%v", got, want)
	}
}

// streamsAfter drops every viewer's first n events.
func streamsAfter(s [][]string, n int) [][]string {
	out := make([][]string, len(s))
	for i := range s {
		out[i] = s[i][n:]
	}
	return out
}

// TestCloseWaitsForSnapshot: Close returns only once the snapshot write
// in flight has, and the snapshot is then in the store.
func TestCloseWaitsForSnapshot(t *testing.T) {
	st := newBlockStore()
	a := newSnapTable(t, st, 4)
	a.async = true
	st.closeAfter(t, a.h)
	a.playUntil(func() bool { return a.round() >= 2 })
	<-st.began
	closed := make(chan struct{})
	go func() {
		a.h.Close()
		close(closed)
	}()
	select {
	case <-closed:
		t.Fatal("Close returned with a snapshot write in flight")
	case <-time.After(50 * time.Millisecond):
	}
	st.open()
	select {
	case <-closed:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return after the write")
	}
	if _, ok := st.Snapshot(a.id); !ok {
		t.Fatal("no snapshot stored")
	}
}

// TestRebuildAfterRefusedWrite: a write the store refuses leaves the game
// as it was - the host makes it again from its history - on a table that
// started here, late in its game after snapshots were taken, and on one
// recovered from a snapshot, whose history starts from that snapshot's
// game; both then play on to the same end as a table whose store refused
// nothing.
func TestRebuildAfterRefusedWrite(t *testing.T) {
	ref := newSnapTable(t, &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}, 4)
	ref.playUntil(func() bool { return false })
	wantEnd := ref.game()

	refuse := func(name string, s *snapTable, st *host.MemoryStore[toyAction]) {
		t.Helper()
		for range 10 {
			before := s.game()
			for seat := range 3 {
				for _, a := range []toyAction{{Seat: seat, Kind: "play", N: 2}, {Seat: seat, Kind: "pass"}} {
					s.n++
					st.SetFail(func() error { return errors.New("disk full") })
					_, err := s.act(seat, fmt.Sprint("refused-", s.n), s.seq(seat), a)
					st.SetFail(nil)
					if errors.Is(err, host.ErrUnavailable) {
						if g := s.game(); g != before {
							t.Fatalf("%s: game after a refused write %+v, want %+v", name, g, before)
						}
						return
					}
				}
			}
			// A claim dwell: let it pass.
			s.clk.Advance(time.Second)
			s.h.WaitSnapshots(s.id)
		}
		t.Fatalf("%s: no seat's action reached the store", name)
	}

	st := &spyStore{MemoryStore: host.NewMemoryStore[toyAction]()}
	a := newSnapTable(t, st, 4)
	a.playUntil(func() bool { return a.round() >= 3 && a.game().total >= 4 })
	if st.saved.Load() < 2 {
		t.Fatalf("%d snapshots saved, want 2 at least", st.saved.Load())
	}
	refuse("started here", a, st.MemoryStore)
	a.h.Close()

	b := recoverOn(t, st, a.clk.Now().Add(time.Minute), a.fixture)
	refuse("recovered", b, st.MemoryStore) // at once: the history is the snapshot's game alone
	b.playUntil(func() bool { return b.game().total >= 8 })
	refuse("recovered, played on", b, st.MemoryStore)
	b.playUntil(func() bool { return false })
	if g := b.game(); g != wantEnd || !g.over {
		t.Fatalf("game at the end %+v, want %+v", g, wantEnd)
	}
}

// unsnappedTable is a started toy table of the given rounds on a host
// that takes no snapshot (no codec): what a host with snapshots must be
// indistinguishable from.
func unsnappedTable(t *testing.T, rounds int) *snapTable {
	t.Helper()
	b := snapTableOn(t, host.NewMemoryStore[toyAction](), rounds, nil)
	t.Cleanup(b.h.Close)
	return b
}
