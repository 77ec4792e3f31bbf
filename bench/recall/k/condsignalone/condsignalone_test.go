// Package condsignalone: two goroutines wait for one event but the event
// wakes only one of them (Signal instead of Broadcast).
package condsignalone

import (
	"sync"
	"testing"
)

type event struct {
	mu    sync.Mutex
	cond  *sync.Cond
	fired bool
}

func (e *event) wait() {
	e.mu.Lock()
	for !e.fired {
		e.cond.Wait()
	}
	e.mu.Unlock()
}

func (e *event) fire() {
	e.mu.Lock()
	e.fired = true
	e.cond.Signal() // wakes one waiter; should Broadcast
	e.mu.Unlock()
}

func TestFire(t *testing.T) {
	e := &event{}
	e.cond = sync.NewCond(&e.mu)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() { defer wg.Done(); e.wait() }()
	}
	e.fire()
	wg.Wait()
}
