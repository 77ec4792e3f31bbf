// Package sleepsync holds two kernels of tests that sleep: Loads, whose
// test waits for its callers by sleeping (it fails only when a caller is
// delayed past the sleep, on a loaded machine), and Transfer, a
// lock-order deadlock that needs no sleep to end early.
package sleepsync

import "sync"

// Loads shares one running load of a key among its callers.
type Loads struct {
	mu      sync.Mutex
	running map[string]*load
}

type load struct {
	done sync.WaitGroup
	val  int
}

// Get returns the key's value, joining the load already running for it
// or running fn. A caller that comes after the load ended runs fn again.
func (l *Loads) Get(key string, fn func() int) int {
	l.mu.Lock()
	if l.running == nil {
		l.running = map[string]*load{}
	}
	if c, ok := l.running[key]; ok {
		l.mu.Unlock()
		c.done.Wait()
		return c.val
	}
	c := &load{}
	c.done.Add(1)
	l.running[key] = c
	l.mu.Unlock()
	c.val = fn()
	c.done.Done()
	l.mu.Lock()
	delete(l.running, key)
	l.mu.Unlock()
	return c.val
}

// Account is a balance under its own lock.
type Account struct {
	mu      sync.Mutex
	balance int
}

// Transfer moves n from a to b, locking a then b: two transfers in
// opposite directions deadlock.
func Transfer(a, b *Account, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	a.balance -= n
	b.balance += n
}
