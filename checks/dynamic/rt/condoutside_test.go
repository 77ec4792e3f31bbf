package rt

import (
	"sync"
	"testing"
	"time"
)

// TestCondBroadcastOutside: a Broadcast made outside control (the runtime's
// finalizer goroutine running a Close: gopkg v0.1.4's channel) wakes a
// controlled goroutine in Cond.Wait. Before, the waiter stayed parked in
// the scheduler's wait set and the test was reported deadlocked.
func TestCondBroadcastOutside(t *testing.T) {
	// Not parallel: a goroutine outside control finds its schedule as the
	// process's one (active), as under interleave, where one runs at a time.
	for _, all := range []bool{true, false} {
		for seed := int64(1); seed <= 3; seed++ {
			r := RunFunc(Config{Seed: seed, StepTimeout: 5 * time.Second}, 0, func() {
				var mu sync.Mutex
				c := sync.NewCond(&mu)
				closed := false
				done := make(chan bool)
				waiting := make(chan struct{}) // real: the waiter holds mu
				Go(func() {
					Lock(&mu)
					close(waiting)
					for !closed {
						CondWait(c)
					}
					Unlock(&mu)
					Send(done, true)
				})
				go func() { // not under control, as a finalizer runs
					<-waiting
					mu.Lock() // once the waiter's Wait unlocked it

					closed = true
					mu.Unlock()
					if all {
						CondBroadcast(c)
					} else {
						CondSignal(c)
					}
				}()
				Recv(done)
			})
			if r.Outcome != "pass" {
				t.Errorf("broadcast %v, seed %d: outcome %s %q, want pass", all, seed, r.Outcome, r.Message)
			}
		}
	}
}
