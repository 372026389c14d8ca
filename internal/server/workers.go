package server

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"

	"google.golang.org/grpc"
)

// workers run unary handlers on goroutines that live as long as the
// server. grpc-go serves every call on a goroutine of its own, which
// starts with a small stack; an action's call takes the engine's step on
// it (the judge's work on a discard) and so grows that stack two or three
// times, each a copy of every frame: measured, a tenth of the server's
// CPU per action (BenchmarkServeStreams in cmd/authority). A worker's
// stack has grown already. grpc.NumStreamWorkers does this inside
// grpc-go, but for streams too: a worker that takes a seat's stream is
// gone for the whole game, so under load the pool would soon be empty.
//
// A call that finds no worker free runs where it is, as before.
type workers struct {
	tasks   chan *task
	stop    chan struct{}
	stopped sync.Once
}

// task is one call handed to a worker; tasks are reused.
type task struct {
	ctx  context.Context
	req  any
	next grpc.UnaryHandler
	resp any
	err  error
	p    *handlerPanic
	done chan struct{}
	// job, when set, makes it an asynchronous task (async): its done is
	// told how its run ended instead of the channel done.
	job job
}

// job is an asynchronous task's work: run, then done with run's panic
// (or its runtime.Goexit), nil when it returned. An interface rather than
// two closures: a Multiplex action is one value (muxCall), where the
// closures and the variables they shared were four allocations.
type job interface {
	run()
	done(*handlerPanic)
}

var tasks = sync.Pool{New: func() any { return &task{done: make(chan struct{}, 1)} }}

// handlerPanic is a panic of a handler on a worker, raised again on the
// call's own goroutine (where the recovery interceptor is) with the
// worker's stack.
type handlerPanic struct {
	value any
	stack []byte
}

func (p *handlerPanic) String() string { return fmt.Sprint(p.value) }

// numWorkers is how many workers a server keeps: a call holds one while
// its table steps and, with a durable store, until its entries are on
// disk (a group commit's fsync), so a few per core.
func numWorkers() int { return 16 * runtime.GOMAXPROCS(0) }

func newWorkers(n int) *workers {
	w := &workers{tasks: make(chan *task), stop: make(chan struct{})}
	for range n {
		go w.run()
	}
	return w
}

func (w *workers) run() {
	for {
		select {
		case t := <-w.tasks:
			t.call()
		case <-w.stop:
			return
		}
	}
}

// call runs the task's handler and tells its caller, also when the
// handler panics or ends its goroutine (runtime.Goexit, which ends the
// worker too).
func (t *task) call() {
	returned := false
	defer func() {
		if p := recover(); p != nil {
			t.p = &handlerPanic{value: p, stack: debug.Stack()}
		} else if !returned {
			t.p = &handlerPanic{value: "the handler called runtime.Goexit", stack: debug.Stack()}
		}
		if t.job != nil {
			j, p := t.job, t.p
			*t = task{done: t.done}
			tasks.Put(t)
			j.done(p)
			return
		}
		t.done <- struct{}{}
	}()
	if t.job != nil {
		t.job.run()
	} else {
		t.resp, t.err = t.next(t.ctx, t.req)
	}
	returned = true
}

// close stops the workers, each once it finishes its call (it does not
// wait for them: a call the server's stop did not end yet ends as it
// would have on its own goroutine); later calls run on their own.
func (w *workers) close() { w.stopped.Do(func() { close(w.stop) }) }

// async runs j on a free worker, or on a goroutine of its own when none
// is free (or w is nil, after Close), and does not wait for it: j.done
// runs after j.run on the same goroutine. For the actions of a Multiplex
// stream, which are not calls of their own.
func (w *workers) async(j job) {
	t := tasks.Get().(*task)
	t.job = j
	if w != nil {
		select {
		case w.tasks <- t:
			return
		default:
		}
	}
	go t.call()
}

// unary is the interceptor that hands a call to a free worker, innermost
// so that every other interceptor runs where it always did.
func (w *workers) unary(ctx context.Context, req any, _ *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	t := tasks.Get().(*task)
	t.ctx, t.req, t.next = ctx, req, next
	select {
	case w.tasks <- t:
	default:
		t.ctx, t.req, t.next = nil, nil, nil
		tasks.Put(t)
		return next(ctx, req)
	}
	<-t.done
	resp, err, p := t.resp, t.err, t.p
	*t = task{done: t.done}
	tasks.Put(t)
	if p != nil {
		panic(p)
	}
	return resp, err
}
