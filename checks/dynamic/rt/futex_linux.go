//go:build linux && !interleave_nofutex

package rt

import (
	"syscall"
	"unsafe"
)

// Hand-offs between controlled goroutines and the scheduler goroutine use a
// futex on a plain uint32. Neither the word nor the raw system call carries a
// race-detector annotation, so a hand-off creates no happens-before edge and
// the race detector keeps seeing the program's own synchronization only.

const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
)

// futexSleep blocks while *addr == old, at most ns nanoseconds.
//
//go:norace
func futexSleep(addr *uint32, old uint32, ns int64) {
	ts := syscall.Timespec{Sec: ns / 1e9, Nsec: ns % 1e9}
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWaitPrivate, uintptr(old), uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// futexWake wakes the waiter on addr, if any.
//
//go:norace
func futexWake(addr *uint32) {
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), futexWakePrivate, 1, 0, 0, 0)
}

// FutexHandoff reports whether hand-offs use a futex (Linux) rather than the
// polling fallback.
const FutexHandoff = true

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
