package store

import (
	"os"

	"golang.org/x/sys/unix"
)

// fdatasync makes f's data durable, and its size only if it changed
// (the log's segments are written full at first, so it never does).
func fdatasync(f *os.File) error { return unix.Fdatasync(int(f.Fd())) }
