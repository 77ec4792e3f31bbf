// Package leakcheck is a kernel of gen's sequential check in a package
// whose TestMain fails when goroutines outlive the tests, as
// goleak.VerifyTestMain does: the check must leave none behind.
package leakcheck

import "sync"

// Tally is safe for concurrent use.
type Tally struct {
	mu sync.Mutex
	n  int
}

// Add counts one.
func (t *Tally) Add() {
	t.mu.Lock()
	t.n++
	t.mu.Unlock()
}

// N returns the count.
func (t *Tally) N() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.n
}
