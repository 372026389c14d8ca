package host

import (
	"errors"
	"fmt"
	"hash/fnv"
	"hash/maphash"
	"runtime"
	"slices"
	"testing"
)

// TestDigest checks digest against hash/fnv's FNV-1a 128, which it must
// equal: the digests are in the snapshots, so they may never change.
func TestDigest(t *testing.T) {
	for _, id := range []string{"", "a", "req-1", "0f0e0d0c-0000-4000-8000-000000000001", string(make([]byte, 1024))} {
		h := fnv.New128a()
		h.Write([]byte(id))
		if got, want := appendKey(nil, digest(id)), h.Sum(nil); !slices.Equal(got, want) {
			t.Errorf("digest(%q) = %x, want %x", id, got, want)
		}
		if k := digest(id); keyFrom(appendKey(nil, k)) != k {
			t.Errorf("keyFrom(appendKey(%x)) differs", k)
		}
	}
}

// TestWindow checks the dedupe window: it finds every id it holds, the
// newest max of them, with their answers (a refusal's error the very
// value it was given), and lists them oldest first.
func TestWindow(t *testing.T) {
	errs := []error{errors.New("refused 0"), fmt.Errorf("seat 1: %w", errors.New("refused 1"))}
	key := func(i int) wkey { return digest(fmt.Sprint("req-", i)).window() }
	ans := func(i int) answer {
		a := answer{act: uint32(i), seq: uint64(i + 1)}
		if i%3 == 1 {
			a.seq, a.err = 0, errs[i%2]
		}
		return a
	}
	for _, tc := range []struct{ max, adds int }{{1, 3}, {4, 3}, {4, 4}, {4, 9}, {16, 17}, {20, 70}, {256, 600}} {
		var w window
		for i := range tc.adds {
			w.add(tc.max, key(i), ans(i))
		}
		var got []wkey
		w.each(func(k wkey, a answer) {
			got = append(got, k)
			if want := key(int(a.act)); k != want {
				t.Errorf("max %d, %d adds: %x holds the answer of req-%d", tc.max, tc.adds, k, a.act)
			}
		})
		var want []wkey
		for i := max(0, tc.adds-tc.max); i < tc.adds; i++ {
			want = append(want, key(i))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("max %d, %d adds: each = %x, want %x", tc.max, tc.adds, got, want)
		}
		for i := range tc.adds {
			a, ok := w.get(key(i))
			if held := i >= tc.adds-tc.max; ok != held || ok && a != ans(i) {
				t.Fatalf("max %d, %d adds: get(req-%d) = %+v, %v; want %+v, held %v", tc.max, tc.adds, i, a, ok, ans(i), held)
			}
		}
		if n := min(tc.adds, tc.max); cap(w.ents) != n && n >= 16 || len(w.refused)-w.gone > n || cap(w.refused) > 2*n {
			t.Fatalf("max %d, %d adds: %d entries' room, %d refusals in %d", tc.max, tc.adds, cap(w.ents), len(w.refused)-w.gone, cap(w.refused))
		}
	}
}

// TestWindowAllocs: once full, a window remembers and finds answers,
// accepted or refused, without allocating.
func TestWindowAllocs(t *testing.T) {
	var w window
	keys := make([]wkey, 512)
	for i := range keys {
		keys[i] = digest(fmt.Sprint("client-", i)).window()
	}
	for i := range 256 {
		w.add(256, keys[i], answer{act: uint32(i), seq: uint64(i)})
	}
	refused := errors.New("refused")
	i := 256
	if n := testing.AllocsPerRun(1000, func() {
		a := answer{act: uint32(i), seq: uint64(i)}
		if i%3 == 0 {
			a = answer{act: uint32(i), err: refused}
		}
		w.add(256, keys[i%512], a)
		if _, ok := w.get(keys[i%512]); !ok {
			t.Fatal("lost an answer")
		}
		i++
	}); n != 0 {
		t.Fatalf("a full window allocates %v times an add", n)
	}
}

// action is riichi's action as the host holds it, for the comparisons.
type action struct {
	seat, kind, tile int8
	tiles            [2]int8
	wall             *int
	tsumogiri        bool
}

// oldAnswer is an answer with its action, as the windows before kept it.
type oldAnswer struct {
	action action
	seq    uint64
	err    error
}

// BenchmarkWindowMemory fills 1,000 seats' windows of 256 request ids (36
// bytes, as uuids) with riichi-sized answers, one in ten a refusal, and
// reports the heap a seat keeps: the window ("digests": 64 bits of the
// id's digest and 32 of the action's, 6.3 KB a seat; 15.8 KB when it
// kept the 128-bit digest and the action), and the layout before digests
// ("ids": each id with its maphash sum and the whole answer).
func BenchmarkWindowMemory(b *testing.B) {
	const seats, size = 1000, 256
	refused := errors.New("refused")
	id := func(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i) }
	ans := func(i int) oldAnswer {
		if i%10 == 0 {
			return oldAnswer{err: fmt.Errorf("seat 1: %w", refused)}
		}
		return oldAnswer{seq: uint64(i)}
	}
	measure := func(b *testing.B, fill func() any) {
		var keep []any
		for range b.N {
			keep = nil
			var m0, m1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m0)
			for range seats {
				keep = append(keep, fill())
			}
			runtime.GC()
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(m1.HeapAlloc-m0.HeapAlloc)/seats, "B/seat")
		}
		runtime.KeepAlive(keep)
	}
	b.Run("ids", func(b *testing.B) {
		measure(b, func() any {
			w := &idWindow[action]{}
			for i := range 2 * size {
				w.add(size, id(i), ans(i))
			}
			return w
		})
	})
	b.Run("digests", func(b *testing.B) {
		measure(b, func() any {
			w := &window{}
			for i := range 2 * size {
				a := ans(i)
				w.add(size, digest(id(i)).window(), answer{act: uint32(i), seq: a.seq, err: a.err})
			}
			return w
		})
	})
}

// BenchmarkDigest is the cost of a request id's digest (a uuid).
func BenchmarkDigest(b *testing.B) {
	ids := []string{"0f0e0d0c-0000-4000-8000-000000000001", "0f0e0d0c-0000-4000-8000-000000000002"}
	var k idKey
	for i := range b.N {
		k = digest(ids[i&1])
	}
	_ = k
}

// idWindow is the window as it was before digests: each id kept, found
// by its maphash sum. For comparisons only.
type idWindow[A comparable] struct {
	sums []uint64
	ids  []string
	ans  []oldAnswer
	head int
}

var idSeed = maphash.MakeSeed()

func (w *idWindow[A]) get(id string) (oldAnswer, bool) {
	h := maphash.String(idSeed, id)
	for i, s := range w.sums {
		if s == h && w.ids[i] == id {
			return w.ans[i], true
		}
	}
	return oldAnswer{}, false
}

func (w *idWindow[A]) add(size int, id string, a oldAnswer) {
	h := maphash.String(idSeed, id)
	if len(w.ids) < size {
		w.sums, w.ids, w.ans = append(w.sums, h), append(w.ids, id), append(w.ans, a)
		return
	}
	w.sums[w.head], w.ids[w.head], w.ans[w.head] = h, id, a
	w.head = (w.head + 1) % len(w.ids)
}

// BenchmarkWindowAct is what a request costs its seat's full window of
// 256 (uuid ids, a third of the answers refusals): a lookup that misses,
// then the answer remembered - the ids kept, as before, and the digests.
func BenchmarkWindowAct(b *testing.B) {
	const size = 256
	ids := make([]string, 4*size)
	for i := range ids {
		ids[i] = fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i)
	}
	refused := errors.New("refused")
	ans := func(i int) oldAnswer {
		if i%3 == 0 {
			return oldAnswer{err: refused}
		}
		return oldAnswer{seq: uint64(i)}
	}
	b.Run("ids", func(b *testing.B) {
		var w idWindow[action]
		for i := range size {
			w.add(size, ids[i], ans(i))
		}
		b.ReportAllocs()
		for i := range b.N {
			id := ids[(size+i)%len(ids)]
			if _, ok := w.get(id); !ok {
				w.add(size, id, ans(i))
			}
		}
	})
	b.Run("digests", func(b *testing.B) {
		var w window
		for i := range size {
			a := ans(i)
			w.add(size, digest(ids[i]).window(), answer{seq: a.seq, err: a.err})
		}
		b.ReportAllocs()
		for i := range b.N {
			k := digest(ids[(size+i)%len(ids)]).window()
			if _, ok := w.get(k); !ok {
				a := ans(i)
				w.add(size, k, answer{act: uint32(i), seq: a.seq, err: a.err})
			}
		}
	})
}
