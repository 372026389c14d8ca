package store_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
	"github.com/mahjong-authority/authority/internal/store"
)

// TestStoreAgainstMemory runs random sequences of writes, moves, crashes
// and reopens on the store and on host.MemoryStore, and wants every table
// to read the same from both after each step.
func TestStoreAgainstMemory(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 4
	}
	for seed := range uint64(seeds) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { runAgainstMemory(t, seed, 80) })
	}
}

// FuzzStoreAgainstMemory is TestStoreAgainstMemory from fuzzed seeds.
func FuzzStoreAgainstMemory(f *testing.F) {
	f.Add(uint64(100))
	f.Fuzz(func(t *testing.T, seed uint64) { runAgainstMemory(t, seed, 60) })
}

func runAgainstMemory(t *testing.T, seed uint64, steps int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	ctx := context.Background()
	dir := t.TempDir()
	opts := []store.Option{
		store.WithJournalMove(time.Hour, 1+rng.IntN(8)),
		store.WithSegmentSize(int64(128 << rng.IntN(6))),
	}
	gen := 0
	path := filepath.Join(dir, "0.db")
	open := func() *store.Bolt[move] {
		s, err := store.Open[move](path, moveCodec{}, opts...)
		if err != nil {
			t.Fatalf("Open %s: %v", path, err)
		}
		return s
	}
	s := open()
	defer func() { s.Close() }()
	m := host.NewMemoryStore[move]()
	ids := []string{"a", "b"}
	next := 0
	var log []string
	for step := range steps {
		id := ids[rng.IntN(len(ids))]
		var what string
		var got, want error
		switch op := rng.IntN(14); {
		case op == 0, op == 12:
			what = "create " + id
			got, want = s.Create(ctx, host.TableRecord{ID: id}), m.Create(ctx, host.TableRecord{ID: id})
		case op <= 4:
			es := numbered(next, 1+rng.IntN(3))
			next += len(es)
			what = fmt.Sprintf("append %d to %s", len(es), id)
			got, want = s.Append(ctx, id, es...), m.Append(ctx, id, es...)
		case op == 5:
			n := uint64(len(m.Entries(id)))
			at := uint64(rng.IntN(int(n) + 2))
			snap := host.TableSnapshot{Entries: at, State: fmt.Appendf(nil, "state %d", step), Events: fmt.Appendf(nil, "events %d", step)}
			what = fmt.Sprintf("snapshot %s at %d", id, at)
			got, want = s.SaveSnapshot(ctx, id, snap), m.SaveSnapshot(ctx, id, snap)
		case op == 6:
			at := t0.Add(time.Duration(rng.IntN(4)) * time.Second)
			what = fmt.Sprintf("finish %s at %v", id, at.Sub(t0))
			got, want = s.Finish(ctx, id, at), m.Finish(ctx, id, at)
		case op == 7, op == 13:
			what = "delete " + id
			got, want = s.Delete(ctx, id), m.Delete(ctx, id)
		case op == 8:
			before := t0.Add(time.Duration(rng.IntN(4)) * time.Second)
			what = fmt.Sprintf("prune before %v", before.Sub(t0))
			n1, e1 := s.Prune(ctx, before)
			n2, e2 := m.Prune(ctx, before)
			if n1 != n2 {
				t.Fatalf("%v\n%s: pruned %d tables, the memory store %d", log, what, n1, n2)
			}
			got, want = e1, e2
		case op == 9:
			if rng.IntN(2) == 0 {
				what = "move " + id
				got = store.MoveTables(s, id)
			} else {
				what = "move all"
				got = store.MoveJournal(s)
			}
		case op == 10:
			what = "crash"
			gen++
			to := filepath.Join(dir, fmt.Sprintf("%d.db", gen))
			copyStore(t, path, to)
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			path = to
			s = open()
		default:
			what = "reopen"
			if err := s.Close(); err != nil {
				t.Fatal(err)
			}
			s = open()
		}
		log = append(log, what)
		if (got == nil) != (want == nil) {
			t.Fatalf("%v: the store says %v, the memory store %v", log, got, want)
		}
		sameTables(t, log, s, m, ids)
	}
}

// sameTables wants every table to read the same from s and m.
func sameTables(t *testing.T, log []string, s *store.Bolt[move], m *host.MemoryStore[move], ids []string) {
	t.Helper()
	ctx := context.Background()
	for _, id := range ids {
		_, snap, es, err := s.LoadTable(ctx, id)
		_, wsnap, wes, werr := m.LoadTable(ctx, id)
		if errors.Is(err, host.ErrNoTable) != errors.Is(werr, host.ErrNoTable) || (err == nil) != (werr == nil) {
			t.Fatalf("%v: LoadTable(%s) = %v, the memory store %v", log, id, err, werr)
		}
		if err != nil {
			continue
		}
		if (snap == nil) != (wsnap == nil) || snap != nil && (snap.Entries != wsnap.Entries || string(snap.State) != string(wsnap.State)) {
			t.Fatalf("%v: LoadTable(%s) snapshot %+v, the memory store %+v", log, id, snap, wsnap)
		}
		if len(es)+len(wes) > 0 && !reflect.DeepEqual(es, wes) {
			t.Fatalf("%v: LoadTable(%s) = %d entries %v, the memory store %d %v", log, id, len(es), es, len(wes), wes)
		}
		all, err := s.LoadEntries(ctx, id, 0)
		if want := m.Entries(id); err != nil || len(all)+len(want) > 0 && !reflect.DeepEqual(all, want) {
			t.Fatalf("%v: LoadEntries(%s, 0) = %d entries, %v; the memory store %d", log, id, len(all), err, len(want))
		}
	}
	var got, want []string
	collect := func(to *[]string) func(host.TableRecord, *host.TableSnapshot, []host.Entry[move]) error {
		return func(rec host.TableRecord, _ *host.TableSnapshot, _ []host.Entry[move]) error {
			*to = append(*to, rec.ID)
			return nil
		}
	}
	if err := s.Load(ctx, collect(&got)); err != nil {
		t.Fatalf("%v: Load: %v", log, err)
	}
	if err := m.Load(ctx, collect(&want)); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%v: Load = %v, the memory store %v", log, got, want)
	}
}
