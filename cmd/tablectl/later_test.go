package main

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/rusage"
)

// TestSchedulerRunsInTimeOrder schedules functions out of order: each
// runs once, not before its time (less schedSlack), in the order of the
// times; a stopped one does not run, and a function reused after its run
// runs again.
func TestSchedulerRunsInTimeOrder(t *testing.T) {
	w := newWorkers()
	defer w.stop()
	s := newScheduler(w)
	defer s.stop()
	var mu sync.Mutex
	var order []int
	var ran sync.WaitGroup
	delays := []time.Duration{60 * time.Millisecond, 20 * time.Millisecond, 100 * time.Millisecond, 40 * time.Millisecond}
	ls := make([]*later, len(delays))
	start := time.Now()
	late := make([]time.Duration, len(delays))
	for i, d := range delays {
		ls[i] = &later{f: func() {
			mu.Lock()
			order = append(order, i)
			late[i] = time.Since(start) - d
			mu.Unlock()
			ran.Done()
		}}
		ran.Add(1)
		s.at(ls[i], d)
	}
	stopped := &later{f: func() { t.Error("a stopped function ran") }}
	s.at(stopped, 30*time.Millisecond)
	if !stopped.stop() {
		t.Fatal("stop before the time: not stopped")
	}
	ran.Wait()
	mu.Lock()
	defer mu.Unlock()
	if want := []int{1, 3, 0, 2}; !slices.Equal(order, want) {
		t.Errorf("ran in order %v, want %v", order, want)
	}
	for i, l := range late {
		if l < -schedSlack {
			t.Errorf("function %d ran %v before its time", i, -l)
		}
	}
	if stopped.stop() {
		t.Error("a second stop stopped it again")
	}
	// Reused after its run, as a seat reuses its own.
	again := make(chan struct{})
	ls[0].f = func() { close(again) }
	s.at(ls[0], time.Millisecond)
	select {
	case <-again:
	case <-time.After(10 * time.Second):
		t.Fatal("a reused function did not run")
	}
}

// BenchmarkThinkSend schedules sends after think times, as the seats of a
// load test do, 1,000 waiting at once with times spread over 4 ms: with
// a time.AfterFunc each that hands the send to a worker (as before), or
// with the scheduler. The send itself is empty: what is measured is the
// cost of getting to it. cpu-ns/op is the process's CPU a send.
func BenchmarkThinkSend(b *testing.B) {
	const waiting = 1000
	const spread = 4 * time.Millisecond
	for _, tc := range []struct {
		name string
		at   func(w *workers, s *scheduler, l *later, d time.Duration)
	}{
		{"afterfunc", func(w *workers, _ *scheduler, l *later, d time.Duration) {
			time.AfterFunc(d, func() { w.run(l.f) })
		}},
		{"scheduler", func(_ *workers, s *scheduler, l *later, d time.Duration) { s.at(l, d) }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			w := newWorkers()
			defer w.stop()
			s := newScheduler(w)
			defer s.stop()
			// A later is scheduled again only once it has run, as a
			// seat's: free holds the ones that have.
			free := make(chan *later, waiting)
			for range waiting {
				l := &later{}
				l.f = func() { free <- l }
				free <- l
			}
			b.ReportAllocs()
			b.ResetTimer()
			cpu := rusage.CPU()
			for i := range b.N {
				tc.at(w, s, <-free, time.Duration(i*7919)%spread)
			}
			for range waiting {
				<-free
			}
			b.StopTimer()
			b.ReportMetric(float64(rusage.CPU()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
