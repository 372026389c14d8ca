package host

import (
	"sync"
	"testing"
)

func TestChunked(t *testing.T) {
	for _, n := range []int{0, 1, chunkLen - 1, chunkLen, chunkLen + 1, 3*chunkLen + 5} {
		var c chunked[int]
		for i := range n {
			c.push(i * 7)
		}
		if c.len() != n {
			t.Fatalf("len after %d pushes = %d", n, c.len())
		}
		for i := range n {
			if got := *c.at(i); got != i*7 {
				t.Fatalf("n=%d: at(%d) = %d, want %d", n, i, got, i*7)
			}
		}
		for _, from := range []int{0, 1, chunkLen, n} {
			if from > n {
				continue
			}
			f := c.from(from)
			if f.len() != n-from {
				t.Fatalf("n=%d: from(%d).len() = %d, want %d", n, from, f.len(), n-from)
			}
			for i := range f.len() {
				if got := *f.at(i); got != (from+i)*7 {
					t.Fatalf("n=%d: from(%d).at(%d) = %d, want %d", n, from, i, got, (from+i)*7)
				}
			}
			if want := (n - from + chunkLen - 1) / chunkLen; len(f.chunks) != want {
				t.Fatalf("n=%d: from(%d) has %d chunks, want %d", n, from, len(f.chunks), want)
			}
		}
	}
}

// TestChunkedView: a copy taken before more pushes still reads what it
// held, and pushing never copies an element: the chunks the view holds
// are the log's.
func TestChunkedView(t *testing.T) {
	var c chunked[int]
	for i := range chunkLen + 3 {
		c.push(i)
	}
	view := c
	for i := range 5 * chunkLen {
		c.push(-i)
	}
	if view.len() != chunkLen+3 {
		t.Fatalf("view len = %d after pushes, want %d", view.len(), chunkLen+3)
	}
	for i := range view.len() {
		if *view.at(i) != i {
			t.Fatalf("view at(%d) = %d", i, *view.at(i))
		}
		if view.at(i) != c.at(i) {
			t.Fatalf("element %d was copied by a push", i)
		}
	}
}

// TestChunkedReaders: views taken under a lock are read without it
// while the writer pushes (go test -race).
func TestChunkedReaders(t *testing.T) {
	var (
		mu sync.RWMutex
		c  chunked[int]
		wg sync.WaitGroup
	)
	const n = 20 * chunkLen
	for range 4 {
		wg.Go(func() {
			for seen := 0; seen < n; {
				mu.RLock()
				view := c
				mu.RUnlock()
				for i := seen; i < view.len(); i++ {
					if *view.at(i) != i {
						t.Errorf("at(%d) = %d", i, *view.at(i))
						return
					}
				}
				seen = view.len()
			}
		})
	}
	for i := range n {
		mu.Lock()
		c.push(i)
		mu.Unlock()
	}
	wg.Wait()
}

// TestChunkedAllocs: a chunk an allocation, and the chunks' list
// growing; never the elements copied (a slice grown by append allocates
// about twice what it holds).
func TestChunkedAllocs(t *testing.T) {
	allocs := testing.AllocsPerRun(10, func() {
		var c chunked[logged[any]]
		for i := range 8 * chunkLen {
			c.push(logged[any]{at: int64(i)})
		}
	})
	// 8 chunks, and the list of them grown to 1, 2, 4, 8.
	if allocs > 12 {
		t.Errorf("pushing 8 chunks' worth allocated %v times, want at most 12", allocs)
	}
}

func BenchmarkChunkedPush(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		var c chunked[logged[any]]
		for i := range 370 {
			c.push(logged[any]{at: int64(i)})
		}
	}
}
