package main

import (
	"container/heap"
	"sync"
	"sync/atomic"
	"time"
)

// scheduler runs functions at their time on workers: one goroutine, one
// timer and a heap of what is due, for all the seats.
//
// It replaces a time.AfterFunc a decision, whose fire started a goroutine
// that only handed the send on to a worker: a timer, a closure and a
// goroutine an action, and two goroutines to wake. Here a fire wakes the
// scheduler, which hands on everything then due (and what is due within
// schedSlack, a think time shortened by less than a millisecond) at once.
type scheduler struct {
	w    *workers
	mu   sync.Mutex
	due  laterHeap
	wake chan struct{} // a token when the earliest time changed
	done chan struct{}
	wg   sync.WaitGroup
}

// schedSlack is how early the scheduler may run a function, to run the
// ones due close together on one wake.
const schedSlack = time.Millisecond

// later is one function to run at a time, owned by its caller: a seat
// reuses its own, one at a time, so scheduling allocates nothing.
type later struct {
	at    time.Time
	f     func()
	state atomic.Int32 // laterIdle, laterDue, laterStopped
	i     int          // index in the heap
}

const (
	laterIdle    = iota // not scheduled, ran, or stopped
	laterDue            // in the heap, to run
	laterStopped        // stopped while in the heap: dropped when its time comes
)

func newScheduler(w *workers) *scheduler {
	s := &scheduler{w: w, wake: make(chan struct{}, 1), done: make(chan struct{})}
	s.wg.Go(s.loop)
	return s
}

// at schedules l.f to run on a worker after d. l must not be scheduled
// already (its last run started or it was stopped).
func (s *scheduler) at(l *later, d time.Duration) {
	l.at = time.Now().Add(d)
	l.state.Store(laterDue)
	s.mu.Lock()
	heap.Push(&s.due, l)
	first := l.i == 0
	s.mu.Unlock()
	if first {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// stop keeps l from running if it has not started; it reports whether it
// stopped it. The heap lets go of a stopped function at its time.
func (l *later) stop() bool { return l.state.CompareAndSwap(laterDue, laterStopped) }

func (s *scheduler) loop() {
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	var run []*later
	for {
		s.mu.Lock()
		now := time.Now()
		for len(s.due) > 0 && s.due[0].at.Sub(now) <= schedSlack {
			l := heap.Pop(&s.due).(*later)
			if l.state.CompareAndSwap(laterDue, laterIdle) {
				run = append(run, l)
			}
		}
		wait := time.Hour
		if len(s.due) > 0 {
			wait = s.due[0].at.Sub(now)
		}
		s.mu.Unlock()
		for i, l := range run {
			s.w.run(l.f)
			run[i] = nil
		}
		run = run[:0]
		t.Reset(wait)
		select {
		case <-t.C:
		case <-s.wake:
		case <-s.done:
			return
		}
	}
}

// stop ends the scheduler: what was still due does not run.
func (s *scheduler) stop() {
	close(s.done)
	s.wg.Wait()
}

// laterHeap orders the scheduled functions by time.
type laterHeap []*later

func (h laterHeap) Len() int           { return len(h) }
func (h laterHeap) Less(i, j int) bool { return h[i].at.Before(h[j].at) }
func (h laterHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].i, h[j].i = i, j
}
func (h *laterHeap) Push(x any) {
	l := x.(*later)
	l.i = len(*h)
	*h = append(*h, l)
}
func (h *laterHeap) Pop() any {
	old := *h
	l := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	return l
}
