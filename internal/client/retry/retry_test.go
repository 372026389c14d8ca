package retry_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/mahjong-authority/authority/internal/client/retry"
)

// limited is a rate limit's refusal that says to come back after d.
func limited(d time.Duration) error {
	st, _ := status.New(codes.ResourceExhausted, "too many requests").WithDetails(&errdetails.RetryInfo{RetryDelay: durationpb.New(d)})
	return st.Err()
}

var (
	unavailable = status.Error(codes.Unavailable, "connection refused")
	refused     = status.Error(codes.FailedPrecondition, "not your turn")
)

// calls answers with errs in turn (then nil) and records when each call came.
type calls struct {
	errs []error
	at   []time.Time
}

func (c *calls) f() error {
	c.at = append(c.at, time.Now())
	if n := len(c.at); n <= len(c.errs) {
		return c.errs[n-1]
	}
	return nil
}

// counts is a Loop whose hooks count.
type counts struct{ throttled, retried int }

func (n *counts) loop(b retry.Backoff) retry.Loop {
	return retry.Loop{Backoff: b, OnThrottle: func() { n.throttled++ }, OnRetry: func() { n.retried++ }}
}

// hour is a backoff no test waits for.
var hour = retry.Backoff{Initial: time.Hour, Max: time.Hour}

func TestDelay(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want time.Duration
		ok   bool
	}{
		{limited(250 * time.Millisecond), 250 * time.Millisecond, true},
		{status.Error(codes.ResourceExhausted, "too many streams"), 0, false}, // no RetryInfo
		{unavailable, 0, false},
		{errors.New("plain"), 0, false},
		{nil, 0, false},
	} {
		if d, ok := retry.Delay(tc.err); d != tc.want || ok != tc.ok {
			t.Errorf("Delay(%v) = %v, %t; want %v, %t", tc.err, d, ok, tc.want, tc.ok)
		}
	}
}

func TestRetryable(t *testing.T) {
	ctx := context.Background()
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	for _, tc := range []struct {
		ctx                   context.Context
		err                   error
		retryable, reopenable bool
	}{
		{ctx, unavailable, true, true},
		{ctx, limited(time.Second), true, true},
		{ctx, refused, false, false},
		{ctx, status.Error(codes.Canceled, "cut"), false, true},
		{cancelled, status.Error(codes.Canceled, "cut"), false, false},
	} {
		if got := retry.Retryable(tc.err); got != tc.retryable {
			t.Errorf("Retryable(%v) = %t, want %t", tc.err, got, tc.retryable)
		}
		if got := retry.Reopenable(tc.ctx, tc.err); got != tc.reopenable {
			t.Errorf("Reopenable(%v, ctx err %v) = %t, want %t", tc.err, tc.ctx.Err(), got, tc.reopenable)
		}
	}
}

// TestBackoffWait: each wait is within ±20% of Initial doubled n times,
// at most Max.
func TestBackoffWait(t *testing.T) {
	b := retry.Backoff{Initial: 100 * time.Millisecond, Max: time.Second}
	for n, base := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		base *= time.Millisecond
		for range 50 {
			if d := b.Wait(n); d < base*8/10 || d > base*12/10 {
				t.Fatalf("Wait(%d) = %v, want %v ±20%%", n, d, base)
			}
		}
	}
}

// TestResendWaitsTheDelay: a rate-limited call goes again after exactly
// the delay the server gave each time - not less, and not the backoff -
// and counts as throttled, not retried.
func TestResendWaitsTheDelay(t *testing.T) {
	const delay = 60 * time.Millisecond
	c := &calls{errs: []error{limited(delay), limited(2 * delay)}}
	var n counts
	if err := n.loop(hour).Resend(context.Background(), c.f); err != nil {
		t.Fatalf("Resend = %v", err)
	}
	if len(c.at) != 3 {
		t.Fatalf("%d calls, want 3", len(c.at))
	}
	for i, want := range []time.Duration{delay, 2 * delay} {
		if gap := c.at[i+1].Sub(c.at[i]); gap < want || gap > want+time.Second {
			t.Errorf("call %d came %v after the one before, want %v", i+2, gap, want)
		}
	}
	if n.throttled != 2 || n.retried != 0 {
		t.Errorf("%+v, want 2 throttled, none retried", n)
	}
}

// TestResend: an unreachable server is tried again after the backoff; a
// refusal is returned at once; a context that ends during a wait ends
// the loop with its error.
func TestResend(t *testing.T) {
	fast := retry.Backoff{Initial: time.Millisecond, Max: 2 * time.Millisecond}
	c := &calls{errs: []error{unavailable, unavailable, limited(time.Millisecond), unavailable}}
	var n counts
	if err := n.loop(fast).Resend(context.Background(), c.f); err != nil || len(c.at) != 5 || n.retried != 3 || n.throttled != 1 {
		t.Fatalf("Resend = %v after %d calls, %+v; want nil after 5, 3 retried, 1 throttled", err, len(c.at), n)
	}
	c = &calls{errs: []error{unavailable, refused}}
	if err := n.loop(fast).Resend(context.Background(), c.f); err != refused || len(c.at) != 2 {
		t.Fatalf("Resend = %v after %d calls, want the refusal after 2", err, len(c.at))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	c = &calls{errs: []error{limited(time.Hour)}}
	if err := n.loop(fast).Resend(ctx, c.f); !errors.Is(err, context.DeadlineExceeded) || len(c.at) != 1 {
		t.Fatalf("Resend = %v after %d calls, want the deadline after 1", err, len(c.at))
	}
}

// TestPaced: a call that must not run twice goes again only after a rate
// limit, which refused it before it ran.
func TestPaced(t *testing.T) {
	c := &calls{errs: []error{limited(time.Millisecond), unavailable}}
	var n counts
	if err := n.loop(hour).Paced(context.Background(), c.f); err != unavailable || len(c.at) != 2 || n.throttled != 1 {
		t.Fatalf("Paced = %v after %d calls, %+v; want Unavailable after 2, 1 throttled", err, len(c.at), n)
	}
}

// TestReopener: failed opens wait a growing backoff and count as retries,
// a rate limit exactly its delay; a message received starts the backoff
// again; a refusal ends Open.
func TestReopener(t *testing.T) {
	const delay = 40 * time.Millisecond
	var n counts
	r := retry.Reopener{Loop: n.loop(retry.Backoff{Initial: 10 * time.Millisecond, Max: 10 * time.Millisecond})}
	c := &calls{errs: []error{unavailable, limited(delay), unavailable}}
	open := func(context.Context) error { return c.f() }
	if err := r.Open(context.Background(), open); err != nil || len(c.at) != 4 {
		t.Fatalf("Open = %v after %d attempts, want nil after 4", err, len(c.at))
	}
	if gap := c.at[2].Sub(c.at[1]); gap < delay || gap > delay+time.Second {
		t.Errorf("the attempt after the rate limit came %v after it, want %v", gap, delay)
	}
	if gap := c.at[1].Sub(c.at[0]); gap < 8*time.Millisecond {
		t.Errorf("the attempt after a failure came %v after it, want the backoff", gap)
	}
	if n.retried != 2 || n.throttled != 1 {
		t.Errorf("%+v, want 2 retried and 1 throttled", n)
	}
	// A stream refused by a rate limit at its first receive: exactly the
	// delay, waited by Broke, and no backoff at the next Open.
	r.Received()
	start := time.Now()
	if again, err := r.Broke(context.Background(), limited(delay), false); !again || err != nil {
		t.Fatalf("Broke(rate limited) = %t, %v; want true", again, err)
	}
	if d := time.Since(start); d < delay || d > delay+time.Second {
		t.Errorf("Broke(rate limited) waited %v, want %v", d, delay)
	}
	if again, err := r.Broke(context.Background(), refused, false); again || err != nil {
		t.Fatalf("Broke(refused) = %t, %v; want false", again, err)
	}
	if again, _ := r.Broke(context.Background(), status.Error(codes.Canceled, "cut"), true); !again || n.retried != 2 {
		t.Errorf("a stream the client cut: reopen %t, %d retries; want a reopen that is no retry", again, n.retried)
	}
	c = &calls{errs: []error{refused}}
	start = time.Now()
	if err := r.Open(context.Background(), open); err != refused {
		t.Fatalf("Open = %v, want the refusal", err)
	}
	if d := time.Since(start); d < 8*time.Millisecond {
		t.Errorf("Open after a break came after %v, want the backoff first", d)
	}
}
