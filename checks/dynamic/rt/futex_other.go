//go:build !linux || interleave_nofutex

package rt

import (
	"os"
	"time"
)

// Used off Linux, or on Linux with -tags interleave_nofutex (to test it).
// Without a futex the waiter polls the plain word and sleeps briefly between
// polls. time.Sleep carries no race-detector annotation, so hand-offs stay
// invisible to the race detector here too; they are only slower.

//go:norace
func futexSleep(addr *uint32, old uint32, ns int64) {
	if ns > int64(50*time.Microsecond) {
		ns = int64(50 * time.Microsecond)
	}
	time.Sleep(time.Duration(ns))
}

//go:norace
func futexWake(addr *uint32) {}

// FutexHandoff reports whether hand-offs use a futex (Linux) rather than the
// polling fallback.
const FutexHandoff = false

// rawStderr writes a trace line. Off Linux it goes through os.Stderr, whose
// internal locking the race detector sees: tracing may hide races there.
func rawStderr(s string) { os.Stderr.WriteString(s) }
