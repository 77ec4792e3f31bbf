// Package long is a kernel of a test that needs more scheduling steps than
// a small step bound (the test sets -max-steps 2000) before it can fail:
// two goroutines count to 1,500 each under a lock, then each adds one more in two critical
// sections (read, then write), which loses an update when the other's
// runs in between.
package long

import "sync"

// Counter is a count guarded by its lock.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one in one critical section.
func (c *Counter) Inc() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// Bump adds one in two: the read, then the write.
func (c *Counter) Bump() {
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
