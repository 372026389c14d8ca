package host

import "time"

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
func (b *Bucket) Allow(now time.Time) bool {
	if b.rate.PerSecond <= 0 || b.rate.Burst <= 0 {
		return true
	}
	if !b.last.IsZero() {
		b.tokens += now.Sub(b.last).Seconds() * b.rate.PerSecond
		if max := float64(b.rate.Burst); b.tokens > max {
			b.tokens = max
		}
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}
