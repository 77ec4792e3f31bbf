// Package polldep plays a test helper module such as testify: the
// rewriter leaves its goroutines and channels as written, and it waits on
// the real clock (a system call), outside the scheduler's control.
package polldep

import (
	"syscall"
	"time"
)

// Eventually plays testify's assert.Eventually: it calls cond on a
// goroutine of its own, then every tick of real time, until cond holds or
// waitFor has passed, and reports whether it held.
func Eventually(cond func() bool, waitFor, tick time.Duration) bool {
	res := make(chan bool, 1)
	go func() {
		for waited := time.Duration(0); ; waited += tick {
			if cond() {
				res <- true
				return
			}
			if waited >= waitFor {
				res <- false
				return
			}
			nap(tick)
		}
	}()
	return <-res
}

// nap sleeps d of real time.
func nap(d time.Duration) {
	ts := syscall.NsecToTimespec(d.Nanoseconds())
	for syscall.Nanosleep(&ts, &ts) == syscall.EINTR {
	}
}
