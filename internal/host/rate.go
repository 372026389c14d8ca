package host

import (
	"math"
	"time"
)

// Rate is a token-bucket limit: Burst requests at once, refilled at PerSecond.
// The zero Rate allows everything.
type Rate struct {
	PerSecond float64
	Burst     int
}

// Bucket is a token bucket for one client. The zero Bucket with a zero Rate
// allows everything. It is not safe for concurrent use.
type Bucket struct {
	rate   Rate
	tokens float64
	last   time.Time
}

// NewBucket returns a full bucket for r.
func NewBucket(r Rate) *Bucket { return &Bucket{rate: r, tokens: float64(r.Burst)} }

// Allow takes a token at time now and reports whether there was one.
func (b *Bucket) Allow(now time.Time) bool { return b.Take(now) == 0 }

// Take takes a token at time now and returns 0, or, when there is none,
// takes nothing and returns how long until there is one: the delay a
// refused client is told to wait (google.rpc.RetryInfo), after which the
// same request is taken. It is what a reservation gives (with
// golang.org/x/time/rate: r := lim.ReserveN(now, 1); d := r.DelayFrom(now);
// if d > 0, r.CancelAt(now) and return d), so that the limiter behind it
// may change without its callers.
func (b *Bucket) Take(now time.Time) time.Duration {
	if b.rate.PerSecond <= 0 || b.rate.Burst <= 0 {
		return 0
	}
	if !b.last.IsZero() && now.After(b.last) {
		b.tokens += now.Sub(b.last).Seconds() * b.rate.PerSecond
		if max := float64(b.rate.Burst); b.tokens > max {
			b.tokens = max
		}
	}
	if now.After(b.last) {
		b.last = now
	}
	// The tolerance absorbs the rounding of the refill, so that a client
	// that waited exactly the delay it was given gets its token.
	const tolerance = 1e-9
	if b.tokens < 1-tolerance {
		secs := (1 - b.tokens) / b.rate.PerSecond
		return max(time.Duration(math.Ceil(secs*float64(time.Second))), time.Nanosecond)
	}
	b.tokens--
	return 0
}
