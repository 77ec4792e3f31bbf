//go:build !linux || interleave_nofutex

package rt

import "os"

// rawStderr writes a trace line. Off Linux it goes through os.Stderr, whose
// internal locking the race detector sees: tracing may hide races there.
func rawStderr(s string) { os.Stderr.WriteString(s) }
