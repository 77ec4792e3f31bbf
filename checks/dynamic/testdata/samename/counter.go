// Package samename: its package and its external test package both
// declare TestCount (go test runs both under that name).
package samename

import "sync"

// Counter counts; Add is safe for concurrent use, AddSplit is not.
type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) Add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// AddSplit reads and writes in two critical sections: called
// concurrently, it loses updates.
func (c *Counter) AddSplit() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = v + 1
	c.mu.Unlock()
}

func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
