//go:build linux && !interleave_nofutex

package rt

import (
	"syscall"
	"time"
	"unsafe"
)

// sleepWord is never woken: futexSleep waits on it for its timeout.
var sleepWord uint32

// futexSleep sleeps about d in a futex wait: a raw system call, which
// allocates nothing and carries no race-detector annotation (nap,
// warmThreads).
//
//go:norace
func futexSleep(d time.Duration) {
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Syscall6(syscall.SYS_FUTEX, uintptr(unsafe.Pointer(&sleepWord)), 0|128 /* FUTEX_WAIT_PRIVATE */, 0, uintptr(unsafe.Pointer(&ts)), 0, 0)
}

// rawStderr writes to standard error with a raw system call: os.File and
// syscall.Write carry synchronization the race detector would see.
//
//go:norace
func rawStderr(s string) { rawStderrBytes([]byte(s)) }

// rawStderrBytes is rawStderr of b, which it does not keep (a trace line
// in a reused buffer: no allocation per decision).
//
//go:norace
func rawStderrBytes(b []byte) {
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

// gettid is the calling thread's id (a raw system call, no race
// annotations).
//
//go:norace
func gettid() int32 { return int32(syscall.Gettid()) }
