//go:build !linux

package store

import "os"

// fdatasync is an fsync where fdatasync is not known.
func fdatasync(f *os.File) error { return f.Sync() }
