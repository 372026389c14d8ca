package main

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// followGoRun makes the server stop with the `go run` that started it.
//
// `go run ./cmd/authority` builds the server and runs it as a child of
// the go command, which waits for it. The go command catches SIGINT (and
// SIGQUIT) and ignores them, because a terminal sends Ctrl-C to the whole
// foreground process group, the server included; but SIGTERM (what kill,
// process managers and container runtimes send) and SIGKILL end the go
// command at once and leave the server running as an orphan, still
// holding its port. So when the parent is the go command, the server asks
// the kernel to send it SIGTERM when its parent dies (PR_SET_PDEATHSIG)
// and stops gracefully on it, as on any SIGTERM. A binary built for
// production is not affected: its parent is not the go command.
//
// It reports whether the parent is the go command.
func followGoRun() (bool, error) {
	ppid := os.Getppid()
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", ppid))
	if err != nil || filepath.Base(exe) != "go" {
		return false, nil
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(syscall.SIGTERM), 0, 0, 0); err != nil {
		return true, fmt.Errorf("stop with go run: %w", err)
	}
	if os.Getppid() != ppid {
		// The go command died before the request took effect.
		return true, syscall.Kill(os.Getpid(), syscall.SIGTERM)
	}
	return true, nil
}
