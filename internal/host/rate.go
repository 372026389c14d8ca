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
// everything. It is safe for concurrent use.
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
func (b *Bucket) Allow(now time.Time) bool {
	return b.l == nil || b.l.AllowN(now, 1)
}
