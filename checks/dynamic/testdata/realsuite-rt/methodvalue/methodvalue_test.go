package methodvalue

import (
	"sync"
	"testing"
)

func run(f func()) { f() }

// Unlock taken as a method value: the scheduler must see the unlock, or
// the other goroutine's Lock never becomes possible.
func TestUnlockValue(t *testing.T) {
	var mu sync.Mutex
	mu.Lock()
	unlock := mu.Unlock
	done := make(chan struct{})
	go func() {
		mu.Lock()
		mu.Unlock()
		close(done)
	}()
	unlock()
	<-done
}

// wg.Done passed around as a function value.
func TestDoneValue(t *testing.T) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go run(wg.Done)
	}
	wg.Wait()
}

type cache struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready bool
}

func after(wait func()) { wait() }

// Cond.Wait passed as a value, with its lock's methods.
func TestCondWaitValue(t *testing.T) {
	c := &cache{}
	c.cond = sync.NewCond(&c.mu)
	lock, unlock := c.mu.Lock, c.mu.Unlock
	go func() {
		lock()
		c.ready = true
		c.cond.Broadcast()
		unlock()
	}()
	c.mu.Lock()
	for !c.ready {
		after(c.cond.Wait)
	}
	c.mu.Unlock()
}

// A method expression and a RWMutex's read lock as values.
func TestMethodExpr(t *testing.T) {
	var rw sync.RWMutex
	rlock := (*sync.RWMutex).RLock
	rlock(&rw)
	runlock := rw.RUnlock
	done := make(chan struct{})
	go func() {
		rw.Lock()
		rw.Unlock()
		close(done)
	}()
	runlock()
	<-done
}
