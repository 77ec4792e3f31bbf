//go:build !linux || interleave_nofutex

package rt

import (
	"os"
	"time"
)

// rawStderr writes a trace line. Off Linux it goes through os.Stderr, whose
// internal locking the race detector sees: tracing may hide races there.
func rawStderr(s string) { os.Stderr.WriteString(s) }

// futexSleep sleeps ns nanoseconds (Linux waits on a futex instead).
//
//go:norace
func futexSleep(addr *uint32, old uint32, ns int64) { time.Sleep(time.Duration(ns)) }
