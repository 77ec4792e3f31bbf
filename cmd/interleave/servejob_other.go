//go:build unix && !linux

package main

import "syscall"

// hardenJob only makes the report pipe close-on-exec off Linux, where
// interleave serve has no sandbox and runs only with -insecure-no-sandbox.
func hardenJob(fd int, nproc, fsize uint64) error {
	syscall.CloseOnExec(fd)
	return nil
}
