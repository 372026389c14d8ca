package server

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	"google.golang.org/grpc"
)

// onWorker reports whether the calling goroutine is one of the workers.
func onWorker() bool {
	buf := make([]byte, 64<<10)
	return strings.Contains(string(buf[:runtime.Stack(buf, false)]), "(*workers).run")
}

// waitIdle returns once a call finds a worker free (the workers start
// their loops in their own time).
func waitIdle(w *workers) {
	info := &grpc.UnaryServerInfo{FullMethod: "/x.Y/Z"}
	for on := false; !on; runtime.Gosched() {
		_, _ = w.unary(context.Background(), nil, info, func(context.Context, any) (any, error) {
			on = onWorker()
			return nil, nil
		})
	}
}

// TestWorkersRunCalls checks the interceptor's three ways: a call runs on
// a free worker with its result and error, a call that finds every
// worker busy runs where it is, and a handler's panic comes back on the
// caller's goroutine with the worker's stack.
func TestWorkersRunCalls(t *testing.T) {
	w := newWorkers(1)
	defer w.close()
	defer w.close() // twice, as a server's Close may be
	ctx := context.Background()
	info := &grpc.UnaryServerInfo{FullMethod: "/x.Y/Z"}
	boom := errors.New("boom")

	resp, err, _ := onFreeWorker(t, w, func(_ context.Context, req any) (any, error) {
		return req.(string) + "!", boom
	})
	if resp != "req!" || err != boom {
		t.Fatalf("unary = %v, %v; want req!, boom", resp, err)
	}

	// The one worker is busy: the next call runs where it is.
	entered, release := make(chan struct{}), make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = w.unary(ctx, nil, info, func(context.Context, any) (any, error) {
			close(entered)
			<-release
			return nil, nil
		})
	}()
	<-entered
	_, _ = w.unary(ctx, nil, info, func(context.Context, any) (any, error) {
		if onWorker() {
			t.Error("a call ran on a busy worker")
		}
		return nil, nil
	})
	close(release)
	<-done
	waitIdle(w)

	_, _, rec := onFreeWorker(t, w, func(context.Context, any) (any, error) { panic("bug") })
	if p, ok := rec.(*handlerPanic); !ok || p.value != "bug" || !strings.Contains(string(p.stack), "TestWorkersRunCalls") {
		t.Errorf("recovered %#v, want the handler's panic with its stack", rec)
	}

	// A handler that ends its goroutine ends its worker, not its caller.
	_, _, rec = onFreeWorker(t, w, func(context.Context, any) (any, error) {
		runtime.Goexit()
		return nil, nil
	})
	if _, ok := rec.(*handlerPanic); !ok {
		t.Errorf("a handler's Goexit came back as %#v, want a panic", rec)
	}
}

// onFreeWorker makes a call with handler h until one runs on w's worker,
// and returns that call's result and what it panicked with. A worker
// that just answered a call is back at its receive a moment later, and a
// call made in that moment runs where it is, as it should (h does not
// run then: the call returns nil).
func onFreeWorker(t *testing.T, w *workers, h grpc.UnaryHandler) (resp any, err error, rec any) {
	t.Helper()
	info := &grpc.UnaryServerInfo{FullMethod: "/x.Y/Z"}
	for range 10000 {
		ran := false
		func() {
			defer func() { rec = recover() }()
			resp, err = w.unary(context.Background(), "req", info, func(ctx context.Context, req any) (any, error) {
				if ran = onWorker(); !ran {
					return nil, nil
				}
				return h(ctx, req)
			})
		}()
		if ran {
			return resp, err, rec
		}
		runtime.Gosched()
	}
	t.Fatal("no call ran on the free worker")
	return nil, nil, nil
}

// asyncOnFreeWorker is onFreeWorker for async: it hands w a task that runs
// fn until one lands on w's worker, and returns the channel that task's
// then gives its end to. A task that lands on a goroutine of its own (the
// worker not yet back at its receive) does not run fn.
func asyncOnFreeWorker(t *testing.T, w *workers, fn func()) <-chan *handlerPanic {
	t.Helper()
	for range 10000 {
		landed, ended := make(chan bool, 1), make(chan *handlerPanic, 1)
		w.async(funcJob{func() {
			on := onWorker()
			landed <- on
			if on {
				fn()
			}
		}, func(p *handlerPanic) { ended <- p }})
		if <-landed {
			return ended
		}
		<-ended
		runtime.Gosched()
	}
	t.Fatal("no task ran on the free worker")
	return nil
}

// funcJob is a job of two functions.
type funcJob struct {
	fn   func()
	then func(*handlerPanic)
}

func (j funcJob) run()                 { j.fn() }
func (j funcJob) done(p *handlerPanic) { j.then(p) }

// TestWorkersAsync checks async's three ways: a task runs on a free
// worker, or on a goroutine of its own when none is free (or there are no
// workers), and a panic or a Goexit of the task comes to then, on the
// task's goroutine, without ending the caller.
func TestWorkersAsync(t *testing.T) {
	w := newWorkers(1)
	defer w.close()
	type ended struct {
		onWorker bool
		p        *handlerPanic
	}
	run := func(w *workers, fn func()) ended {
		c := make(chan ended, 1)
		var on bool
		w.async(funcJob{func() { on = onWorker(); fn() }, func(p *handlerPanic) { c <- ended{on, p} }})
		return <-c
	}
	for _, c := range []struct {
		name     string
		w        *workers
		fn       func()
		onWorker bool
		panics   any
	}{
		{"a free worker", w, func() {}, true, nil},
		{"a panic", w, func() { panic("bug") }, true, "bug"},
		{"a Goexit", w, func() { runtime.Goexit() }, true, "the handler called runtime.Goexit"},
		{"no workers", nil, func() {}, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got ended
			if c.w != nil {
				// Goexit ended the worker: a server's pool has many; this
				// test makes a new one. The task must land on it
				// (asyncOnFreeWorker fails the test otherwise).
				c.w = newWorkers(1)
				defer c.w.close()
				got = ended{onWorker: true, p: <-asyncOnFreeWorker(t, c.w, c.fn)}
			} else {
				got = run(nil, c.fn)
			}
			if got.onWorker != c.onWorker {
				t.Errorf("ran on a worker: %v, want %v", got.onWorker, c.onWorker)
			}
			switch {
			case c.panics == nil && got.p != nil:
				t.Errorf("then got %v, want nil", got.p)
			case c.panics != nil && (got.p == nil || got.p.value != c.panics || len(got.p.stack) == 0):
				t.Errorf("then got %#v, want the panic %v with its stack", got.p, c.panics)
			}
		})
	}
	// Every worker busy: the task runs on its own goroutine.
	release := make(chan struct{})
	asyncOnFreeWorker(t, w, func() { <-release })
	if got := run(w, func() {}); got.onWorker {
		t.Error("a task ran on a busy worker")
	}
	close(release)
}
