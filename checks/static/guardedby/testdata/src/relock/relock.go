// Package relock: a helper that releases the caller's lock around a wait
// and takes it again before returning (or returns early without touching
// it) leaves the lock held; the *Locked calls after it are held
// (coder/quartz's matchCallLocked). One that returns unlocked on a path
// still releases it.
package relock

import "sync"

type Mock struct {
	mu    sync.Mutex
	traps []int
	all   []int
	next  int
}

// matchCallLocked waits for the traps with m.mu released, then re-takes it.
func (m *Mock) matchCallLocked(wg *sync.WaitGroup) {
	if len(m.traps) == 0 {
		return
	}
	wg.Add(len(m.traps))
	m.mu.Unlock()
	for range m.traps {
		go wg.Done()
	}
	wg.Wait()
	m.mu.Lock()
}

func (m *Mock) recomputeNextLocked() {
	m.next = len(m.all)
}

// AddTicker: m.mu is held again after matchCallLocked on every path.
func (m *Mock) AddTicker(wg *sync.WaitGroup) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.matchCallLocked(wg)
	m.all = append(m.all, 1)
	m.recomputeNextLocked() // ok: matchCallLocked re-takes m.mu
}

// releaseLocked unlocks m.mu and returns without it when there are traps.
func (m *Mock) releaseLocked() {
	if len(m.traps) == 0 {
		return
	}
	m.mu.Unlock()
}

// AddTimer: after releaseLocked, m.mu may be released.
func (m *Mock) AddTimer() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.releaseLocked()
	m.recomputeNextLocked() // want `call to m.recomputeNextLocked without holding m.mu`
}
