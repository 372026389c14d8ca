package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"go.uber.org/zap"
)

// gcOptions tune the Go runtime's garbage collector (--memory-limit,
// --gogc), as the GOMEMLIMIT and GOGC variables do, so that an operator
// sets them where the other flags are. A larger GOGC collects less often
// (less CPU per action) for a larger heap between collections; a memory
// limit bounds that heap, the collector working harder as it nears the
// limit. docs/serving.md says how to choose.
type gcOptions struct {
	limit   int64 // bytes; 0: as the environment says (GOMEMLIMIT, or none)
	percent int   // GOGC; 0: as the environment says (GOGC, or 100, or limitedGOGC); -1: off
}

// limitedGOGC is GOGC under a memory limit when neither --gogc nor GOGC
// says: the limit bounds the heap, so the growth rule may as well spend
// the memory below it on fewer collections. At 10,000 tables on one
// 2-core machine 200 against 100 took 383 against 471 µs of CPU an
// action (docs/performance.md, Where it stands).
const limitedGOGC = 200

// sizeUnits are the suffixes of --memory-limit, those of GOMEMLIMIT.
var sizeUnits = []struct {
	suffix string
	shift  uint
}{{"TiB", 40}, {"GiB", 30}, {"MiB", 20}, {"KiB", 10}, {"B", 0}}

// parseSize reads a byte count like GOMEMLIMIT's: a whole number with an
// optional B, KiB, MiB, GiB or TiB.
func parseSize(s string) (int64, error) {
	num, shift := s, uint(0)
	for _, u := range sizeUnits {
		if n, ok := strings.CutSuffix(s, u.suffix); ok {
			num, shift = n, u.shift
			break
		}
	}
	n, err := strconv.ParseInt(strings.TrimSpace(num), 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: want a size like 1536MiB or 2GiB", s)
	}
	if n > math.MaxInt64>>shift {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return n << shift, nil
}

func (g *gcOptions) setLimit(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	g.limit = n
	return nil
}

func (g *gcOptions) setPercent(s string) error {
	if s == "off" {
		g.percent = -1
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("%q: want a percentage of 1 or more, or off", s)
	}
	g.percent = n
	return nil
}

func (g gcOptions) check() error {
	if g.percent == -1 && g.limit == 0 {
		return errors.New("--gogc off needs --memory-limit: without it the heap grows without bound")
	}
	return nil
}

// apply sets the collector as the flags say, leaving what they do not
// set to the environment, and logs what is in effect.
func (g gcOptions) apply(log *zap.Logger) {
	if g.limit > 0 {
		debug.SetMemoryLimit(g.limit)
	}
	limit := debug.SetMemoryLimit(-1) // reads it
	switch {
	case g.percent != 0:
		debug.SetGCPercent(g.percent)
	case limit < math.MaxInt64 && os.Getenv("GOGC") == "":
		debug.SetGCPercent(limitedGOGC)
	}
	percent := debug.SetGCPercent(100)
	debug.SetGCPercent(percent)
	fields := []zap.Field{zap.Int("gogc", percent)}
	if limit < math.MaxInt64 {
		fields = append(fields, zap.Int64("memory_limit_bytes", limit))
	}
	log.Info("garbage collector", fields...)
}
