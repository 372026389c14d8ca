package main

import (
	"math"
	"math/bits"
	"sync/atomic"
	"time"
)

// latencies is a histogram of durations with a fixed size, safe for
// concurrent use without a lock: a load test records one duration per
// event and per action, tens of millions in a long run, so it keeps
// counts, not the durations. Durations are counted in microseconds, each
// below 1,024 µs in a bucket of its own and larger ones in 512 buckets an
// octave, so a quantile is exact below 1.024 ms and within 0.1% above.
type latencies struct {
	n      atomic.Uint64
	counts [latBuckets]atomic.Uint64
}

const (
	latExact   = 1 << 10 // microseconds counted one by one
	latSub     = 512     // buckets an octave above latExact
	latOctaves = 40      // up to 2^50 µs, far beyond any run
	latBuckets = latExact + latOctaves*latSub
)

// latBucket is the bucket of u microseconds.
func latBucket(u uint64) int {
	if u < latExact {
		return int(u)
	}
	shift := bits.Len64(u) - 10 // u>>shift is in [512, 1024)
	i := latExact + (shift-1)*latSub + int(u>>shift) - latSub
	return min(i, latBuckets-1)
}

// latValue is the middle of bucket i, in microseconds.
func latValue(i int) float64 {
	if i < latExact {
		return float64(i)
	}
	shift := (i-latExact)/latSub + 1
	lo := uint64((i-latExact)%latSub+latSub) << shift
	return float64(lo) + float64(uint64(1)<<shift-1)/2
}

// add counts d (a negative d, clocks apart, as 0).
func (l *latencies) add(d time.Duration) {
	u := uint64(max(d, 0) / time.Microsecond)
	l.counts[latBucket(u)].Add(1)
	l.n.Add(1)
}

// quantileMs is the q-quantile in milliseconds, to the microsecond
// (nearest rank); 0 for none. Counts added while it reads may or may not
// be in it.
func (l *latencies) quantileMs(q float64) float64 {
	n := l.n.Load()
	if n == 0 {
		return 0
	}
	rank := uint64(max(1, math.Ceil(q*float64(n))))
	var seen uint64
	for i := range l.counts {
		if seen += l.counts[i].Load(); seen >= rank {
			return math.Round(latValue(i)) / 1000
		}
	}
	// Counted after n was read: the largest bucket seen.
	for i := len(l.counts) - 1; i >= 0; i-- {
		if l.counts[i].Load() > 0 {
			return math.Round(latValue(i)) / 1000
		}
	}
	return 0
}

// latWindow reads a latencies' quantiles over the counts added since its
// previous reading: a progress line's p99 of the last interval, which
// shows when a stall happened where the run's p99 would only creep up.
type latWindow struct {
	last  [latBuckets]uint64
	delta latencies
}

// quantileMs is the q-quantile, in milliseconds, of the durations l counted
// since the previous call (since l began for the first); 0 for none. It is
// not safe for concurrent use.
func (w *latWindow) quantileMs(l *latencies, q float64) float64 {
	return w.take(l).quantileMs(q)
}

// take returns the durations l counted since the previous take (since l
// began for the first), as a histogram that the next take overwrites. It
// is not safe for concurrent use.
func (w *latWindow) take(l *latencies) *latencies {
	var n uint64
	for i := range l.counts {
		c := l.counts[i].Load()
		w.delta.counts[i].Store(c - w.last[i])
		n += c - w.last[i]
		w.last[i] = c
	}
	w.delta.n.Store(n)
	return &w.delta
}
