// Package ok compiles and its test does.
package ok

import "sync"

// Counter counts under a lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds one.
func (c *Counter) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}
