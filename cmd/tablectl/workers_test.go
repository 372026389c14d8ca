package main

import (
	"sync"
	"testing"
	"time"
)

// TestWorkersRunAtOnce runs functions that all wait for each other: they
// finish only if every one got a worker at once, none waiting for a busy
// one. Then a worker left idle is reused, and stop waits for all.
func TestWorkersRunAtOnce(t *testing.T) {
	w := newWorkers()
	const n = 50
	var all sync.WaitGroup
	all.Add(n)
	var ran sync.WaitGroup
	ran.Add(n)
	for range n {
		w.run(func() {
			all.Done()
			all.Wait()
			ran.Done()
		})
	}
	done := make(chan struct{})
	go func() { ran.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the functions did not all run at once")
	}
	// The workers are idle now: another function runs on one of them.
	ch := make(chan struct{})
	w.run(func() { close(ch) })
	<-ch
	w.stop()
}
