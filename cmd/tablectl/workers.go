package main

import (
	"sync"
	"time"
)

// workers runs functions on goroutines that live on between them, as
// many at once as are given: a function goes to an idle worker if there
// is one, else to a new one, so nothing ever waits for a worker. A worker
// idle for workerIdle ends.
//
// It is there for the bots' sends after their think time: a gRPC send
// runs deep, and on a goroutine of its own (time.AfterFunc's) every send
// grew a new stack from its first few KiB, copying it at each doubling -
// a tenth of the load generator's CPU. A worker's stack has grown once.
type workers struct {
	jobs chan func() // unbuffered: a send succeeds only to an idle worker
	done chan struct{}
	wg   sync.WaitGroup
}

// workerIdle is how long a worker waits for its next function.
const workerIdle = 10 * time.Second

func newWorkers() *workers { return &workers{jobs: make(chan func()), done: make(chan struct{})} }

// run runs f on an idle worker or a new one. It must not be called after
// stop.
func (w *workers) run(f func()) {
	select {
	case w.jobs <- f:
	default:
		w.wg.Go(func() { w.work(f) })
	}
}

// work runs f, then what comes until it is idle for workerIdle.
func (w *workers) work(f func()) {
	idle := time.NewTimer(workerIdle)
	defer idle.Stop()
	for {
		f()
		idle.Reset(workerIdle)
		select {
		case f = <-w.jobs:
		case <-idle.C:
			return
		case <-w.done:
			return
		}
	}
}

// stop ends the workers once the functions they run have returned, and
// waits for them.
func (w *workers) stop() {
	close(w.done)
	w.wg.Wait()
}
