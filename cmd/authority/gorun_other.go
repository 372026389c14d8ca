//go:build !linux

package main

// followGoRun does nothing where the kernel cannot signal a child when its
// parent dies: stop the server itself, or build the binary.
func followGoRun() (bool, error) { return false, nil }
