// Package stopworld: a collector's sweep writes slot generations plainly
// while every mutator that loads them atomically is parked (wazy's
// collectGarbageLocked), under the lock the atomic writer also holds.
package stopworld

import (
	"sync"
	"sync/atomic"
)

type slot struct {
	gen uint32
	obj *int
}

type heap struct {
	mu    sync.Mutex
	slots []slot
}

func (h *heap) Alloc(o *int) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.slots = append(h.slots, slot{})
	s := &h.slots[len(h.slots)-1]
	s.obj = o
	atomic.StoreUint32(&s.gen, 1)
	return len(h.slots) - 1
}

// Live runs in mutators, without the lock.
func (h *heap) Live(i int, gen uint32) bool {
	s := &h.slots[i]
	return atomic.LoadUint32(&s.gen) == gen
}

// Collect parks the mutators, then sweeps.
func (h *heap) Collect() {
	h.sweep()
	h.reset()
}

// sweep frees every slot. h.mu is held and every mutator but the caller
// is parked, so no Live runs while this does.
func (h *heap) sweep() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.slots {
		s := &h.slots[i]
		s.obj = nil
		s.gen++ // want `plain write of s.gen races`
	}
}

// reset clears the generations; nothing says the mutators are stopped.
func (h *heap) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i := range h.slots {
		s := &h.slots[i]
		s.gen = 0 /* IL3002 */ // want `plain write of s.gen races`
	}
}
