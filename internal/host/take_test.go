package host_test

import (
	"testing"
	"time"

	"github.com/mahjong-authority/authority/internal/host"
)

// TestBucketTake checks the delay a refused request is told: the time
// until the bucket holds a token again, after which the same request is
// taken.
func TestBucketTake(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	for _, tc := range []struct {
		name  string
		rate  host.Rate
		takes []time.Duration // when each request comes
		want  []time.Duration // Take's answers
	}{
		{"unlimited", host.Rate{}, []time.Duration{0, 0, 0}, []time.Duration{0, 0, 0}},
		{"burst then 10/s", host.Rate{PerSecond: 10, Burst: 2},
			[]time.Duration{0, 0, 0, 100 * time.Millisecond, 100 * time.Millisecond},
			[]time.Duration{0, 0, 100 * time.Millisecond, 0, 100 * time.Millisecond}},
		{"part of a token", host.Rate{PerSecond: 10, Burst: 1},
			[]time.Duration{0, 30 * time.Millisecond, 100 * time.Millisecond},
			[]time.Duration{0, 70 * time.Millisecond, 0}},
		// x/time/rate truncates to the nanosecond; what is left of the
		// token then takes less than a nanosecond, so the delay given is
		// enough (TestBucketWaitedDelay).
		{"3/s to the nanosecond", host.Rate{PerSecond: 3, Burst: 1},
			[]time.Duration{0, 0, 333333333},
			[]time.Duration{0, 333333333, 0}},
		{"a clock going back refills nothing", host.Rate{PerSecond: 1, Burst: 1},
			[]time.Duration{time.Second, 0},
			[]time.Duration{0, time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := host.NewBucket(tc.rate)
			for i, d := range tc.takes {
				if got := b.Take(at(d)); got != tc.want[i] {
					t.Fatalf("request %d at %v: Take = %v, want %v", i, d, got, tc.want[i])
				}
			}
		})
	}
}

// TestBucketWaitedDelay takes at exactly the delay given, many times: the
// request is always taken then.
func TestBucketWaitedDelay(t *testing.T) {
	for _, r := range []host.Rate{{PerSecond: 10, Burst: 10}, {PerSecond: 3, Burst: 1}, {PerSecond: 7.3, Burst: 2}} {
		b := host.NewBucket(r)
		now := time.Unix(1_700_000_000, 0)
		for i := range 1000 {
			d := b.Take(now)
			if d == 0 {
				continue
			}
			now = now.Add(d)
			if again := b.Take(now); again != 0 {
				t.Fatalf("%+v, request %d: refused again after waiting %v: %v", r, i, d, again)
			}
		}
	}
}
