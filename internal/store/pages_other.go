//go:build !linux

package store

// dropMapped does nothing where madvise is not known to keep a shared
// file mapping's contents (see pages_linux.go).
func dropMapped(addr, size uintptr) error { return nil }

// residentMapped is not known here; the writer then drops nothing.
func residentMapped() (int64, bool) { return 0, false }
