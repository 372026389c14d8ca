// Package retry is how the Go clients of the authority send a call again,
// whatever the service (TableService, DoudizhuService): which errors may go
// away by themselves, the backoff while the server is unreachable, exactly
// the delay a rate limit gives (google.rpc.RetryInfo) before the same
// request goes again, and the reopening of a dropped event stream. Both
// packages internal/client and internal/doudizhu/client use it, so that
// what one gets right the other does not redo.
package retry

import (
	"context"
	"math/rand/v2"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

// Backoff is how long to wait between attempts while the server is
// unreachable: Initial, doubling up to Max, each wait randomised by ±20%.
type Backoff struct {
	Initial, Max time.Duration
}

// DefaultBackoff retries quickly at first and every two seconds at most, so
// that a restarted server is found within about two seconds.
var DefaultBackoff = Backoff{Initial: 50 * time.Millisecond, Max: 2 * time.Second}

// Wait is the pause before attempt n (0 for the first retry).
func (b Backoff) Wait(n int) time.Duration {
	d := b.Initial
	for i := 0; i < n && d < b.Max; i++ {
		d *= 2
	}
	d = min(d, b.Max)
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// Sleep waits for attempt n's pause or the end of ctx.
func (b Backoff) Sleep(ctx context.Context, n int) error { return Sleep(ctx, b.Wait(n)) }

// Sleep waits d or until ctx ends, and then returns ctx's error.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Retryable reports whether an RPC error may go away by itself: the server
// is unreachable, restarting or stopping (Unavailable), or asks the client
// to slow down (ResourceExhausted). Anything else is the server's answer.
func Retryable(err error) bool {
	switch status.Code(err) {
	case codes.Unavailable, codes.ResourceExhausted:
		return true
	}
	return false
}

// Delay is the delay a rate-limited request was told to wait
// (google.rpc.RetryInfo): the server takes the same request after it. ok
// is false for any other error. A rate-limited request was not run at
// all, so sending it again is safe even for calls that are not retried
// otherwise (creating a table, joining one).
func Delay(err error) (d time.Duration, ok bool) {
	st, isStatus := status.FromError(err)
	if !isStatus || st.Code() != codes.ResourceExhausted {
		return 0, false
	}
	for _, det := range st.Details() {
		if r, isRetry := det.(*errdetails.RetryInfo); isRetry {
			return r.GetRetryDelay().AsDuration(), true
		}
	}
	return 0, false
}

// Reopenable reports whether a failed stream is worth reopening: the
// server is unreachable or stopping, or the stream was cancelled under a
// context that is still alive (the client cut it, or the context of an
// earlier call that opened it ended).
func Reopenable(ctx context.Context, err error) bool {
	return Retryable(err) || status.Code(err) == codes.Canceled && ctx.Err() == nil
}

// Loop sends calls again. The hooks, when set, count what it did.
type Loop struct {
	Backoff    Backoff
	OnThrottle func() // each wait of a rate limit's delay, before the same call goes again
	OnRetry    func() // each wait of the backoff after an error that may go away
}

// Throttle waits the delay of a rate-limited error and reports true, or
// reports false at once for any other error (or when ctx ends first, with
// the context's error).
func (l Loop) Throttle(ctx context.Context, err error) (bool, error) {
	d, ok := Delay(err)
	if !ok {
		return false, nil
	}
	if l.OnThrottle != nil {
		l.OnThrottle()
	}
	if err := Sleep(ctx, d); err != nil {
		return false, err
	}
	return true, nil
}

// Resend runs a call that is safe to send again unchanged - an action
// with its request id and last seq, a read - until it succeeds, fails
// for good, or ctx ends (then the last error, or the context's while
// waiting). A rate-limited attempt goes again after exactly the delay the
// server gave, which does not grow the backoff; an unreachable server is
// tried again after the backoff.
func (l Loop) Resend(ctx context.Context, f func() error) error {
	for n := 0; ; {
		err := f()
		if err == nil || !Retryable(err) || ctx.Err() != nil {
			return err
		}
		if again, werr := l.Throttle(ctx, err); werr != nil {
			return werr
		} else if again {
			continue
		}
		if l.OnRetry != nil {
			l.OnRetry()
		}
		if err := l.Backoff.Sleep(ctx, n); err != nil {
			return err
		}
		n++
	}
}

// Paced runs a call that must not run twice (creating a table, joining
// one) until it succeeds or fails other than by a rate limit, which
// refused it before it ran.
func (l Loop) Paced(ctx context.Context, f func() error) error {
	for {
		err := f()
		if err == nil || ctx.Err() != nil {
			return err
		}
		if again, werr := l.Throttle(ctx, err); werr != nil {
			return werr
		} else if !again {
			return err
		}
	}
}

// Reopener opens a resumable event stream and opens it again after it
// broke: after a failed attempt it waits the backoff (growing while the
// attempts keep failing), after a rate limit exactly the delay the server
// gave. The stream itself, and where it resumes (after_seq), are the
// caller's. Its zero value with a Loop set is ready.
type Reopener struct {
	Loop
	failures int // consecutive failed attempts
}

// Open calls open until a stream opens. It returns open's error when that
// is not worth retrying (Reopenable), or the context's.
func (r *Reopener) Open(ctx context.Context, open func(ctx context.Context) error) error {
	for {
		if r.failures > 0 {
			if err := r.Backoff.Sleep(ctx, r.failures-1); err != nil {
				return err
			}
		}
		err := open(ctx)
		if err == nil {
			return nil
		}
		if again, werr := r.Throttle(ctx, err); werr != nil {
			return werr
		} else if again {
			continue
		}
		if !Reopenable(ctx, err) {
			return err
		}
		r.failures++
		if r.OnRetry != nil {
			r.OnRetry()
		}
	}
}

// Broke handles a stream that ended with err (cut: the client cancelled
// it itself, which is no failed call and is not told to OnRetry), and
// reports whether to open it again. A stream refused by a rate limit -
// which a server-streaming call reports on its first receive, not when it
// opens - is opened again after exactly the delay the server gave, waited
// here; one worth reopening otherwise (Reopenable) after the backoff,
// which the next Open waits. It returns the context's error if ctx ends
// while waiting.
func (r *Reopener) Broke(ctx context.Context, err error, cut bool) (bool, error) {
	if again, werr := r.Throttle(ctx, err); werr != nil || again {
		return again, werr
	}
	if !Reopenable(ctx, err) {
		return false, nil
	}
	r.failures++
	if !cut && r.OnRetry != nil {
		r.OnRetry()
	}
	return true, nil
}

// Received notes a message on the stream: it works, and the backoff
// starts from the beginning after the next break.
func (r *Reopener) Received() { r.failures = 0 }
