// Package good builds, and writes under a read lock.
package good

import "sync"

// Counter counts lookups.
type Counter struct {
	mu      sync.RWMutex
	lookups int
	byKey   map[string]int
}

// Get returns key's value and counts the lookup: under RLock, which lets
// two readers write lookups at once.
func (c *Counter) Get(key string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.lookups++
	return c.byKey[key]
}
