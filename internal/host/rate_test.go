package host

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestBucket pins the limits the flags promise: Burst at once, then one
// every 1/PerSecond, never more than Burst saved up; a zero rate or burst
// allows everything.
func TestBucket(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	for _, tc := range []struct {
		name  string
		rate  Rate
		times []int // ms after t0
		want  []bool
	}{
		{"burst then refused", Rate{PerSecond: 10, Burst: 2}, []int{0, 0, 0}, []bool{true, true, false}},
		{"refilled at the rate", Rate{PerSecond: 10, Burst: 2}, []int{0, 0, 0, 99, 100, 100}, []bool{true, true, false, false, true, false}},
		{"never more than burst saved", Rate{PerSecond: 10, Burst: 2}, []int{0, 10000, 10000, 10000}, []bool{true, true, true, false}},
		{"zero rate allows all", Rate{Burst: 1}, []int{0, 0, 0}, []bool{true, true, true}},
		{"zero burst allows all", Rate{PerSecond: 1}, []int{0, 0, 0}, []bool{true, true, true}},
	} {
		b := NewBucket(tc.rate)
		var got []bool
		for _, ms := range tc.times {
			got = append(got, b.Allow(at(ms)))
		}
		assert.Equal(t, tc.want, got, tc.name)
	}
	var zero Bucket
	assert.True(t, zero.Allow(t0), "the zero Bucket allows")
}

// TestBucketTake checks the delay a refusal gives: a client that waits
// exactly that long gets its token, and a refusal takes nothing.
func TestBucketTake(t *testing.T) {
	t0 := time.Unix(1000, 0)
	b := NewBucket(Rate{PerSecond: 3, Burst: 1})
	assert.Zero(t, b.Take(t0), "the first token")
	d := b.Take(t0)
	assert.InDelta(t, float64(time.Second/3), float64(d), float64(time.Microsecond), "the delay of the refusal")
	assert.Equal(t, d, b.Take(t0), "a refusal takes nothing: the same delay again")
	assert.Greater(t, b.Take(t0.Add(d/2)), time.Duration(0), "half the delay is not enough")
	assert.Zero(t, b.Take(t0.Add(d)), "after exactly the delay")
	var zero Bucket
	assert.Zero(t, zero.Take(t0))
}
