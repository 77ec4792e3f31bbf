// Package values is a kernel of a lost update checked by an assertion
// that prints its expected and actual values as testify does: two
// goroutines each add one to a count in two critical sections (read,
// then write), so one addition is lost when the other's runs in between.
package values

import "sync"

// Counter is a count guarded by its lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Add adds one in two critical sections: the read, then the write.
func (c *Counter) Add() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n = v + 1
	c.mu.Unlock()
}

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}
