package store

import "syscall"

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
