// Package condsignalnolock: the waiter checks the flag in a loop under the
// Cond's lock, but the setter stores the flag and signals without taking
// the lock; between the waiter's check and its Wait, the Signal is lost.
package condsignalnolock

import (
	"sync"
	"sync/atomic"
	"testing"
)

type latch struct {
	mu    sync.Mutex
	cond  *sync.Cond
	ready atomic.Bool
}

func newLatch() *latch {
	l := &latch{}
	l.cond = sync.NewCond(&l.mu)
	return l
}

func (l *latch) wait() {
	l.mu.Lock()
	for !l.ready.Load() {
		l.cond.Wait()
	}
	l.mu.Unlock()
}

func (l *latch) open() {
	l.ready.Store(true) // should hold l.mu
	l.cond.Signal()
}

func TestLatch(t *testing.T) {
	l := newLatch()
	go l.open()
	l.wait()
}
