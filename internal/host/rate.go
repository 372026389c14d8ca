package host

import (
	"time"

	"golang.org/x/time/rate"
)

// Rate is a token-bucket limit: Burst requests at once, refilled at PerSecond.
// The zero Rate allows everything.
type Rate struct {
	PerSecond float64
	Burst     int
}

// Bucket is a token bucket for one client (golang.org/x/time/rate, driven
// by the caller's clock so that fake clocks work). The zero Bucket allows
// everything. It is not safe for concurrent use: Take reserves a token and
// gives it back when it must wait, which another caller must not see.
type Bucket struct {
	l *rate.Limiter // nil: no limit
}

// NewBucket returns a full bucket for r.
func NewBucket(r Rate) *Bucket {
	if r.PerSecond <= 0 || r.Burst <= 0 {
		return &Bucket{}
	}
	return &Bucket{l: rate.NewLimiter(rate.Limit(r.PerSecond), r.Burst)}
}

// Allow takes a token at time now and reports whether there was one.
func (b *Bucket) Allow(now time.Time) bool { return b.Take(now) == 0 }

// Take takes a token at time now and returns 0, or, when there is none,
// takes nothing and returns how long until there is one: the delay a
// refused client is told to wait (google.rpc.RetryInfo), after which the
// same request is taken.
func (b *Bucket) Take(now time.Time) time.Duration {
	if b.l == nil {
		return 0
	}
	r := b.l.ReserveN(now, 1) // always OK: the burst is 1 or more
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now) // gives the token back: a refusal takes nothing
		return d
	}
	return 0
}
