//go:build !linux || interleave_nofutex

package rt

import (
	"os"
	"time"
)

// rawStderr writes a trace line. Off Linux it goes through os.Stderr, whose
// internal locking the race detector sees: tracing may hide races there.
func rawStderr(s string) { os.Stderr.WriteString(s) }

// rawStderrBytes is rawStderr of b.
func rawStderrBytes(b []byte) { os.Stderr.Write(b) }

// futexSleep sleeps about d (Linux waits on a futex instead).
//
//go:norace
func futexSleep(d time.Duration) { time.Sleep(d) }

// gettid is 0 (unknown) off Linux: current finds every goroutine by goid.
func gettid() int32 { return 0 }
