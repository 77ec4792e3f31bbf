//go:build linux && !interleave_nofutex

package rt

import (
	"syscall"
	"unsafe"
)

// futexSleep blocks in a futex wait while *addr == old, at most ns
// nanoseconds: a sleep in a raw system call, which allocates nothing and
// carries no race-detector annotation (nap, warmThreads).
//
//go:norace
func futexSleep(addr *uint32, old uint32, ns int64) {
	ts := syscall.Timespec{Sec: ns / 1e9, Nsec: ns % 1e9}
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), 0|128 /* FUTEX_WAIT_PRIVATE */, uintptr(old), uintptr(unsafe.Pointer(&ts)), 0, 0)
}

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
