// Package racereturn has a watcher that reads a counter some time after
// it starts, without synchronization: a test races with it after the
// test returned (plain go test's process has ended by then).
package racereturn

import (
	"sync/atomic"
	"time"
)

var total int64

// Watch starts a goroutine that reads *hits after wait.
func Watch(wait time.Duration, hits *int) {
	go func() {
		time.Sleep(wait)
		atomic.AddInt64(&total, int64(*hits))
	}()
}
