// Package mockclock plays a dependency module with a mock clock, as rate
// limiters test with (benbjohnson/clock): Sleep receives on a channel that
// Add feeds, and Add naps after each wake-up so that the woken goroutine
// runs. The rewriter puts its nap on the virtual clock but leaves its
// channels and mutex as written, so a goroutine in Sleep waits outside the
// scheduler's control.
package mockclock

import (
	"sync"
	"time"
)

// Nap is how long Add sleeps after each wake-up (benbjohnson/clock: 1 ms).
const Nap = 100 * time.Millisecond

// Mock is a clock that moves only when Add is called.
type Mock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
}

type waiter struct {
	at time.Time
	c  chan time.Time
}

// New returns a mock clock at the zero time.
func New() *Mock { return &Mock{} }

// Waiting is the number of goroutines in Sleep.
func (m *Mock) Waiting() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.waiters)
}

// Sleep waits until the clock has moved by d.
func (m *Mock) Sleep(d time.Duration) {
	m.mu.Lock()
	c := make(chan time.Time, 1)
	m.waiters = append(m.waiters, waiter{m.now.Add(d), c})
	m.mu.Unlock()
	<-c
}

// Add moves the clock by d and wakes the sleepers whose time has come,
// napping after each.
func (m *Mock) Add(d time.Duration) {
	m.mu.Lock()
	m.now = m.now.Add(d)
	var due []waiter
	keep := m.waiters[:0]
	for _, w := range m.waiters {
		if w.at.After(m.now) {
			keep = append(keep, w)
		} else {
			due = append(due, w)
		}
	}
	m.waiters = keep
	now := m.now
	m.mu.Unlock()
	for _, w := range due {
		w.c <- now
		time.Sleep(Nap)
	}
}
