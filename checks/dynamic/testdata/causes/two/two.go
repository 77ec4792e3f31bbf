// Package two has two unrelated races: a counter incremented without its
// lock, and a registry whose length is read without the lock its writer
// takes. Two causes: two findings.
package two

import "sync"

// Counter counts events.
type Counter struct {
	mu sync.Mutex
	n  int
}

// Inc adds one, forgetting the lock.
func (c *Counter) Inc() { c.n++ }

// Value returns the count.
func (c *Counter) Value() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// Registry holds names.
type Registry struct {
	mu    sync.Mutex
	names []string
}

// Add appends a name under the lock.
func (r *Registry) Add(name string) {
	r.mu.Lock()
	r.names = append(r.names, name)
	r.mu.Unlock()
}

// Len returns the number of names, forgetting the lock.
func (r *Registry) Len() int { return len(r.names) }
