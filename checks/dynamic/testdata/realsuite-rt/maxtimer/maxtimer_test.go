package maxtimer

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// never is the longest duration: a loop with nothing to do arms its timer
// for it (go-quartz's execution loop).
const never = time.Duration(1<<63 - 1)

// The idle loop's timer is never due, however late it is armed.
func TestIdleTimer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	work := make(chan int)
	done := make(chan struct{})
	var ticks, jobs atomic.Int32
	go func() {
		defer close(done)
		timer := time.NewTimer(never)
		defer timer.Stop()
		for {
			select {
			case <-timer.C:
				ticks.Add(1)
				timer.Reset(never)
			case <-work:
				jobs.Add(1)
				timer.Reset(never)
			case <-ctx.Done():
				return
			}
		}
	}()
	time.Sleep(10 * time.Millisecond)
	work <- 1
	time.Sleep(time.Second)
	cancel()
	<-done
	if n := ticks.Load(); n != 0 || jobs.Load() != 1 {
		t.Fatalf("the idle timer fired %d times (%d jobs)", n, jobs.Load())
	}
}

// A ticker with the longest period ticks never, and a sleep of it in a
// goroutine the test does not wait for does not wake.
func TestIdleTicker(t *testing.T) {
	tk := time.NewTicker(never)
	defer tk.Stop()
	woke := make(chan struct{}, 1)
	go func() {
		time.Sleep(never)
		woke <- struct{}{}
	}()
	time.Sleep(time.Second)
	select {
	case <-tk.C:
		t.Fatal("the ticker ticked")
	case <-woke:
		t.Fatal("the sleeper woke")
	default:
	}
}
