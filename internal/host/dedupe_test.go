package host

import (
	"fmt"
	"runtime"
	"slices"
	"testing"
)

// TestWindow checks the dedupe window: it finds every id it holds, the
// newest max of them, and lists them oldest first.
func TestWindow(t *testing.T) {
	for _, tc := range []struct{ max, adds int }{{1, 3}, {4, 3}, {4, 4}, {4, 9}, {256, 600}} {
		var w window[int]
		for i := range tc.adds {
			w.add(tc.max, fmt.Sprint("req-", i), answer[int]{action: i, seq: uint64(i + 1)})
		}
		var got []string
		w.each(func(id string, a answer[int]) {
			got = append(got, id)
			if want := fmt.Sprint("req-", a.action); id != want {
				t.Errorf("max %d, %d adds: %s holds the answer of %s", tc.max, tc.adds, id, want)
			}
		})
		var want []string
		for i := max(0, tc.adds-tc.max); i < tc.adds; i++ {
			want = append(want, fmt.Sprint("req-", i))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("max %d, %d adds: each = %v, want %v", tc.max, tc.adds, got, want)
		}
		for i := range tc.adds {
			a, ok := w.get(fmt.Sprint("req-", i))
			if held := i >= tc.adds-tc.max; ok != held || ok && (a.action != i || a.seq != uint64(i+1)) {
				t.Fatalf("max %d, %d adds: get(req-%d) = %+v, %v; want held %v", tc.max, tc.adds, i, a, ok, held)
			}
		}
	}
}

// BenchmarkWindowMemory fills 100 seats' windows of 256 request ids (36
// bytes, as uuids) with riichi-sized answers and reports the heap a seat
// keeps, against the map and list of ids the host kept before.
func BenchmarkWindowMemory(b *testing.B) {
	type action struct {
		seat, kind, tile int8
		tiles            [2]int8
		wall             *int
		tsumogiri        bool
	}
	const seats, size = 100, 256
	id := func(i int) string { return fmt.Sprintf("%08x-0000-4000-8000-%012x", i, i) }
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
	b.Run("map", func(b *testing.B) {
		measure(b, func() any {
			m := map[string]answer[action]{}
			var order []string
			for i := range 2 * size {
				if len(order) >= size {
					delete(m, order[0])
					order = order[1:]
				}
				s := id(i)
				m[s] = answer[action]{seq: uint64(i)}
				order = append(order, s)
			}
			return []any{m, order}
		})
	})
	b.Run("window", func(b *testing.B) {
		measure(b, func() any {
			w := &window[action]{}
			for i := range 2 * size {
				w.add(size, id(i), answer[action]{seq: uint64(i)})
			}
			return w
		})
	})
}
