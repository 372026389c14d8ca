package main

import (
	"io"
	"math"
	"runtime/debug"
	"testing"

	"go.uber.org/zap"
)

func TestGCFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		want    gcOptions
		refused bool
	}{
		{nil, gcOptions{}, false},
		{[]string{"--memory-limit", "2GiB"}, gcOptions{limit: 2 << 30}, false},
		{[]string{"--memory-limit", "1536MiB", "--gogc", "400"}, gcOptions{limit: 1536 << 20, percent: 400}, false},
		{[]string{"--memory-limit", "4096"}, gcOptions{limit: 4096}, false},
		{[]string{"--memory-limit", "64KiB", "--gogc", "off"}, gcOptions{limit: 64 << 10, percent: -1}, false},
		{[]string{"--gogc", "50"}, gcOptions{percent: 50}, false},
		{[]string{"--gogc", "off"}, gcOptions{}, true}, // no bound at all
		{[]string{"--gogc", "0"}, gcOptions{}, true},
		{[]string{"--gogc", "-5"}, gcOptions{}, true},
		{[]string{"--memory-limit", "0"}, gcOptions{}, true},
		{[]string{"--memory-limit", "-1GiB"}, gcOptions{}, true},
		{[]string{"--memory-limit", "2GB"}, gcOptions{}, true}, // GiB, as GOMEMLIMIT
		{[]string{"--memory-limit", "99999999999TiB"}, gcOptions{}, true},
	} {
		o, err := parse(c.args, io.Discard)
		if c.refused {
			if err == nil {
				t.Errorf("parse(%q) accepted %+v", c.args, o.gc)
			}
			continue
		}
		if err != nil || o.gc != c.want {
			t.Errorf("parse(%q) = %+v, %v; want %+v", c.args, o.gc, err, c.want)
		}
	}
}

// TestGCApply checks that the flags take effect on the runtime, and that
// leaving them unset changes nothing.
func TestGCApply(t *testing.T) {
	limit0, percent0 := debug.SetMemoryLimit(-1), debug.SetGCPercent(-1)
	debug.SetGCPercent(percent0)
	defer func() {
		debug.SetMemoryLimit(limit0)
		debug.SetGCPercent(percent0)
	}()

	if limit0 == math.MaxInt64 {
		gcOptions{}.apply(zap.NewNop())
		if l, p := debug.SetMemoryLimit(-1), debug.SetGCPercent(percent0); l != limit0 || p != percent0 {
			t.Fatalf("unset flags changed the collector: limit %d, GOGC %d; was %d, %d", l, p, limit0, percent0)
		}
	}
	// A limit without GOGC anywhere: the larger growth target.
	t.Setenv("GOGC", "")
	gcOptions{limit: 2 << 30}.apply(zap.NewNop())
	if l, p := debug.SetMemoryLimit(-1), debug.SetGCPercent(percent0); l != 2<<30 || p != limitedGOGC {
		t.Fatalf("after --memory-limit 2GiB alone: limit %d, GOGC %d; want GOGC %d", l, p, limitedGOGC)
	}
	// GOGC in the environment still decides.
	t.Setenv("GOGC", "100")
	gcOptions{limit: 2 << 30}.apply(zap.NewNop())
	if p := debug.SetGCPercent(percent0); p != percent0 {
		t.Fatalf("after --memory-limit 2GiB with GOGC=100 set: GOGC %d; want it left at %d", p, percent0)
	}
	gcOptions{limit: 3 << 30, percent: 250}.apply(zap.NewNop())
	if l, p := debug.SetMemoryLimit(-1), debug.SetGCPercent(percent0); l != 3<<30 || p != 250 {
		t.Fatalf("after --memory-limit 3GiB --gogc 250: limit %d, GOGC %d", l, p)
	}
	gcOptions{limit: 1 << 30, percent: -1}.apply(zap.NewNop())
	if l, p := debug.SetMemoryLimit(-1), debug.SetGCPercent(percent0); l != 1<<30 || p != -1 {
		t.Fatalf("after --memory-limit 1GiB --gogc off: limit %d, GOGC %d", l, p)
	}
}
