package main

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// exactQuantileMs is the nearest-rank q-quantile of ds in milliseconds, to
// the microsecond: what latencies approximates.
func exactQuantileMs(ds []time.Duration, q float64) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := max(0, min(int(math.Ceil(q*float64(len(s))))-1, len(s)-1))
	return math.Round(float64(s[i]/time.Microsecond)) / 1000
}

// TestLatenciesQuantile: exact below 1.024 ms, within 0.1% above, at
// every scale a load test sees; nothing counted is 0.
func TestLatenciesQuantile(t *testing.T) {
	var empty latencies
	if got := empty.quantileMs(0.99); got != 0 {
		t.Errorf("no durations: p99 %v, want 0", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		max  time.Duration
	}{{"sub-millisecond", time.Millisecond}, {"milliseconds", 50 * time.Millisecond}, {"seconds", 30 * time.Second}, {"hours", 5 * time.Hour}} {
		var l latencies
		ds := make([]time.Duration, 10_000)
		for i := range ds {
			ds[i] = time.Duration(rng.Int64N(int64(tc.max)))
			l.add(ds[i])
		}
		for _, q := range []float64{0.01, 0.5, 0.99, 1} {
			got, want := l.quantileMs(q), exactQuantileMs(ds, q)
			tol := 0.001
			if want >= 1.024 {
				tol = want * 0.001
			}
			if math.Abs(got-want) > tol+1e-9 {
				t.Errorf("%s: q%v = %v ms, want %v (within %v)", tc.name, q, got, want, tol)
			}
		}
	}
	var l latencies
	l.add(-time.Second) // clocks apart: counted as 0
	l.add(3 * time.Microsecond)
	if got := l.quantileMs(0.5); got != 0 {
		t.Errorf("negative duration: p50 %v, want 0", got)
	}
	if got := l.quantileMs(1); got != 0.003 {
		t.Errorf("p100 %v, want 0.003", got)
	}
}

// BenchmarkLatenciesAdd counts durations from both cores at once, as every
// seat of a load test does for each event.
func BenchmarkLatenciesAdd(b *testing.B) {
	var l latencies
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		d := time.Duration(0)
		for pb.Next() {
			d = (d + 7919*time.Microsecond) % (3 * time.Second)
			l.add(d)
		}
	})
}

// TestLatWindow: each reading covers only what was counted since the
// previous one, so a stall shows in its interval and not after it.
func TestLatWindow(t *testing.T) {
	var l latencies
	var w latWindow
	if got := w.quantileMs(&l, 0.99); got != 0 {
		t.Errorf("nothing counted: p99 %v, want 0", got)
	}
	for range 100 {
		l.add(900 * time.Microsecond)
	}
	if got := w.quantileMs(&l, 0.99); got != 0.9 {
		t.Errorf("first interval: p99 %v, want 0.9", got)
	}
	for range 100 {
		l.add(300 * time.Microsecond)
	}
	if got := w.quantileMs(&l, 0.99); got != 0.3 {
		t.Errorf("second interval: p99 %v, want 0.3 (the first interval's 0.9 ms left out)", got)
	}
	if got := l.quantileMs(0.99); got != 0.9 {
		t.Errorf("the run's p99 %v, want 0.9", got)
	}
	if got := w.quantileMs(&l, 0.99); got != 0 {
		t.Errorf("an empty interval: p99 %v, want 0", got)
	}
}

// TestSteadyLatencies: the steady latencies leave out what ended in the
// warmup, and a run done before the warmup ends has none.
func TestSteadyLatencies(t *testing.T) {
	m := &loadMetrics{}
	for range 100 {
		m.actLat.add(900 * time.Microsecond)
		m.eventLat.add(800 * time.Microsecond)
	}
	var st steadyLatencies
	st.start(m, time.Nanosecond, make(chan struct{}))
	for i := range 100 {
		m.actLat.add(time.Duration(200+i) * time.Microsecond)
		m.eventLat.add(100 * time.Microsecond)
	}
	s := m.summary(1)
	st.end(m, &s)
	if s.SteadyActP50ms != 0.249 || s.SteadyActP99ms != 0.298 || s.SteadyEventP99ms != 0.1 {
		t.Errorf("steady act p50 %v p99 %v, event p99 %v; want 0.249, 0.298, 0.1 (the warmup's left out)", s.SteadyActP50ms, s.SteadyActP99ms, s.SteadyEventP99ms)
	}
	if s.ActP99ms != 0.9 || s.EventP99ms != 0.8 {
		t.Errorf("the run's act p99 %v, event p99 %v; want 0.9, 0.8 (everything)", s.ActP99ms, s.EventP99ms)
	}

	done := make(chan struct{})
	close(done)
	var early steadyLatencies
	early.start(m, time.Hour, done)
	s = m.summary(1)
	early.end(m, &s)
	if s.SteadyActP50ms != 0 || s.SteadyActP99ms != 0 || s.SteadyEventP99ms != 0 {
		t.Errorf("a run done within its warmup has steady latencies %+v", s)
	}
}
