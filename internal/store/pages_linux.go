package store

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// dropMapped tells the kernel that the process no longer needs the size
// bytes mapped at addr (madvise MADV_DONTNEED). bbolt maps its file
// shared and read-only and writes it with pwrite, so the pages stay in
// the page cache, and a reader that touches one again maps it again
// (a minor fault) with the file's contents: nothing changes for readers
// but the process's resident set.
func dropMapped(addr, size uintptr) error {
	if size == 0 {
		return nil
	}
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, addr, size, syscall.MADV_DONTNEED); e != 0 {
		return e
	}
	return nil
}

// residentMapped is the bytes of shared mappings resident in the
// process (the third field of /proc/self/statm: RssFile and RssShmem),
// which is the store's file and the executable's own pages.
func residentMapped() (int64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	f := bytes.Fields(b)
	if len(f) < 3 {
		return 0, false
	}
	pages, err := strconv.ParseInt(string(f[2]), 10, 64)
	if err != nil {
		return 0, false
	}
	return pages * int64(os.Getpagesize()), true
}
