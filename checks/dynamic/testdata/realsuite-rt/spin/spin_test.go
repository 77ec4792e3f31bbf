package spin

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// A flag set by a timer, polled with an atomic load.
func TestAtomicLoadLoop(t *testing.T) {
	var flag atomic.Bool
	time.AfterFunc(10*time.Millisecond, func() { flag.Store(true) })
	for !flag.Load() {
	}
}

// The same with runtime.Gosched in the loop.
func TestGoschedLoop(t *testing.T) {
	var flag int32
	time.AfterFunc(10*time.Millisecond, func() { atomic.StoreInt32(&flag, 1) })
	for atomic.LoadInt32(&flag) == 0 {
		runtime.Gosched()
	}
}

// A select with default around a timer.
func TestSelectDefaultLoop(t *testing.T) {
	tm := time.NewTimer(10 * time.Millisecond)
	spins := 0
	for {
		select {
		case <-tm.C:
			if spins == 0 {
				t.Log("the timer fired before the first poll")
			}
			return
		default:
			spins++
		}
	}
}

// Busy-waiting on the clock.
func TestClockLoop(t *testing.T) {
	start := time.Now()
	for time.Since(start) < 5*time.Millisecond {
	}
}
