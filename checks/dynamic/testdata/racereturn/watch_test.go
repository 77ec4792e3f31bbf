package racereturn

import (
	"sync/atomic"
	"testing"
	"time"
)

var lateHits int

// TestLateRead returns long before its watcher reads: the race is after
// the test returned.
func TestLateRead(t *testing.T) {
	Watch(time.Minute, &lateHits)
	lateHits++
}

var everyHits int

// TestRaceEverySchedule races on every schedule: its watcher's read and
// its write are never ordered.
func TestRaceEverySchedule(t *testing.T) {
	done := make(chan bool)
	go func() {
		atomic.AddInt64(&total, int64(everyHits))
		close(done)
	}()
	everyHits++
	<-done
}
