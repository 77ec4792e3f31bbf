//go:build !interleavenever
// +build !interleavenever

// A file with a constraint of its own, in the style of modules older
// than go 1.17.

package oldclock

import "time"

// Stopper returns a timer's Stop, which the caller calls when done.
func Stopper(d time.Duration) func() bool {
	t := time.NewTimer(d)
	return t.Stop
}
