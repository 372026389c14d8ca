// Package rusage reads what the process has used so far, for benchmarks
// that report CPU per operation.
package rusage

import (
	"syscall"
	"time"
)

// CPU is the process's user and system time so far (0 if the system
// does not say).
func CPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
