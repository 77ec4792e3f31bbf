package rt

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Cond signals from outside control. A controlled goroutine in Cond.Wait
// waits in the scheduler's wait set, not in the Cond's own: a Signal or
// Broadcast by a goroutine the scheduler does not control (the runtime's
// finalizer goroutine running a Close, code that is not rewritten) is
// queued here and applied at the scheduler's next decision, or while it
// waits on the outside (probe): Broadcast wakes every waiter, Signal the
// one waiting longest, as the runtime's notify list does. Before, such a
// waiter was never woken (gopkg v0.1.4's TestChannelGCClose: a finalizer's
// Close broadcast to its producers, which stayed parked).
var (
	outsideCondMu  sync.Mutex
	outsideCondOps []outsideCond
	outsideCondN   atomic.Int32
)

type outsideCond struct {
	c   unsafe.Pointer
	all bool
}

// signalOutside queues a Signal (all: a Broadcast) of c made outside
// control while a schedule runs.
//
//go:norace
func signalOutside(c *sync.Cond, all bool) {
	if noSchedule() {
		return
	}
	outsideCondMu.Lock()
	outsideCondOps = append(outsideCondOps, outsideCond{unsafe.Pointer(c), all})
	outsideCondN.Add(1)
	outsideCondMu.Unlock()
}

// takeOutsideSignals applies the queued signals to the wait sets; it
// reports whether one woke a waiter.
//
//go:norace
func (s *sched) takeOutsideSignals() bool {
	if outsideCondN.Load() == 0 {
		return false
	}
	woke := false
	for _, op := range takeQueuedSignals() {
		c, _ := s.conds.get(op.c)
		if c == nil || len(c.waiters) == 0 {
			continue
		}
		n := 1
		if op.all {
			n = len(c.waiters)
		}
		for _, h := range c.waiters[:n] {
			h.signal = true
		}
		c.waiters = c.waiters[n:]
		woke = true
	}
	return woke
}

// dropOutsideSignals forgets the signals queued before a schedule starts.
func dropOutsideSignals() { takeQueuedSignals() }

// takeQueuedSignals empties the queue and returns what it held.
func takeQueuedSignals() []outsideCond {
	outsideCondMu.Lock()
	defer outsideCondMu.Unlock()
	ops := outsideCondOps
	outsideCondOps = nil
	outsideCondN.Store(0)
	return ops
}
