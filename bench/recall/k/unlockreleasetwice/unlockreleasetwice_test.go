// Package unlockreleasetwice: a lease holds a mutex that either the
// worker's completion or the caller's give-up releases. Each checks an
// atomic flag with Load and sets it with Store: both can pass the check,
// and the second Unlock is of an unlocked mutex (fatal).
package unlockreleasetwice

import (
	"sync"
	"sync/atomic"
	"testing"
)

type lease struct {
	mu       sync.Mutex
	released atomic.Bool
}

func acquire(l *lease) { l.mu.Lock() }

func (l *lease) release() {
	if !l.released.Load() { // should be CompareAndSwap(false, true)
		l.released.Store(true)
		l.mu.Unlock()
	}
}

func TestLease(t *testing.T) {
	l := &lease{}
	acquire(l)
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.release() // the work finished
	}()
	l.release() // the caller gives up
	<-done
	l.mu.Lock() // the next holder
	l.mu.Unlock()
}
