// Package okcondsignallocked: the setter stores the flag and signals
// holding the Cond's lock. Must not be reported.
package okcondsignallocked

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
	l.mu.Lock()
	l.ready.Store(true)
	l.cond.Signal()
	l.mu.Unlock()
}

func TestLatch(t *testing.T) {
	l := newLatch()
	go l.open()
	l.wait()
}
