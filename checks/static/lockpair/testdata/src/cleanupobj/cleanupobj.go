// Package cleanupobj: a lock released through a helper object that holds
// the unlock closure in a field (cbauth's cmd/cache-service Cleanup).
package cleanupobj

import "sync"

type Cleanup struct {
	canceled bool
	f        func()
}

func NewCleanup(f func()) *Cleanup {
	return &Cleanup{canceled: false, f: f}
}

// Run calls the stored func once.
func (c *Cleanup) Run() {
	if !c.canceled {
		c.f()
		c.Cancel()
	}
}

func (c *Cleanup) Cancel() { c.canceled = true }

// Log calls nothing stored: its receiver's closure is not run.
func (c *Cleanup) Log() {}

type Mgr struct {
	mu      sync.Mutex
	waiters []chan int
}

func (m *Mgr) removeWaiter(ch chan int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, w := range m.waiters {
		if w == ch {
			m.waiters = append(m.waiters[:i], m.waiters[i+1:]...)
			break
		}
	}
}

// Wait releases m.mu through unlock.Run before locking it again: silent.
func (m *Mgr) Wait(done bool, cancel chan struct{}) int { // want Wait:"acquires m.mu"
	m.mu.Lock()
	unlock := NewCleanup(func() { m.mu.Unlock() })
	defer unlock.Run()
	if done {
		return 0
	}
	ch := make(chan int, 1)
	m.waiters = append(m.waiters, ch)
	unlock.Run()
	select {
	case <-cancel:
		m.removeWaiter(ch)
		return -1
	case v := <-ch:
		return v
	}
}

// WaitLiteral builds the helper in place: silent.
func (m *Mgr) WaitLiteral(ch chan int) { // want WaitLiteral:"acquires m.mu"
	m.mu.Lock()
	c := &Cleanup{f: func() { m.mu.Unlock() }}
	c.Run()
	m.removeWaiter(ch)
}

// WaitLog calls a method that never runs the closure: still a double lock.
func (m *Mgr) WaitLog(ch chan int) {
	m.mu.Lock()
	unlock := NewCleanup(func() { m.mu.Unlock() })
	defer unlock.Run()
	unlock.Log()
	m.removeWaiter(ch) // want `call to m.removeWaiter locks m.mu, which is already held here`
}

// WaitOther releases another mutex through the helper: still a double lock.
func (m *Mgr) WaitOther(other *sync.Mutex, ch chan int) {
	m.mu.Lock()
	other.Lock()
	unlock := NewCleanup(func() { other.Unlock() })
	unlock.Run()
	m.removeWaiter(ch) // want `call to m.removeWaiter locks m.mu, which is already held here`
	m.mu.Unlock()
}

// Len leaves m.mu to the deferred helper on the early return: silent.
func (m *Mgr) Len(fail bool) int { // want Len:"acquires m.mu"
	m.mu.Lock()
	unlock := NewCleanup(func() { m.mu.Unlock() })
	defer unlock.Run()
	if fail {
		return -1
	}
	n := len(m.waiters)
	unlock.Cancel()
	m.mu.Unlock()
	return n
}
