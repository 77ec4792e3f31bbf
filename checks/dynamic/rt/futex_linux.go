//go:build linux && !interleave_nofutex

package rt

import (
	"syscall"
	"unsafe"
)

// rawStderr writes to standard error with a raw system call: os.File and
// syscall.Write carry synchronization the race detector would see.
//
//go:norace
func rawStderr(s string) {
	b := []byte(s)
	for len(b) > 0 {
		n, _, e := syscall.Syscall(syscall.SYS_WRITE, 2, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if e != 0 && e != syscall.EINTR {
			return
		}
		if e == 0 {
			b = b[n:]
		}
	}
}
