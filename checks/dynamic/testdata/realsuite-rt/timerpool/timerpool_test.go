package timerpool

import (
	"sync"
	"testing"
	"time"

	"dep"
)

// A package-level pool of timers, as yamux's util.go keeps: a timer made
// in one test (one schedule) is used again by the next, or by a goroutine
// the test does not control.
var timerPool = &sync.Pool{
	New: func() any {
		timer := time.NewTimer(time.Hour * 1e6)
		timer.Stop()
		return timer
	},
}

func wait(d time.Duration) {
	timer := timerPool.Get().(*time.Timer)
	timer.Reset(d)
	defer func() {
		timer.Stop()
		timerPool.Put(timer)
	}()
	<-timer.C
}

func TestFirst(t *testing.T) {
	wait(time.Millisecond)
}

func TestSecond(t *testing.T) {
	wait(time.Millisecond)
	wait(2 * time.Millisecond)
}

// The pool's timer used on a goroutine started by a dependency, outside
// the scheduler's control.
func TestOutside(t *testing.T) {
	wait(time.Millisecond)
	if !dep.Eventually(func() bool { wait(time.Millisecond); return true }, 5*time.Second, time.Millisecond) {
		t.Fatal("wait outside control never returned")
	}
	wait(time.Millisecond)
}
