// Package rlock is a cache whose Get records statistics while holding only
// the read lock: one bug, which races with itself and with every reader of
// the fields it writes, each pair a race report of its own.
package rlock

import "sync"

// Cache maps keys to values and counts lookups.
type Cache struct {
	mu     sync.RWMutex
	m      map[string]int
	hits   int
	misses int
	last   string
}

// New returns a cache holding m.
func New(m map[string]int) *Cache { return &Cache{m: m} }

// Get returns the value of k.
func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	if ok {
		c.hits++ // the bug: a write under the read lock
	} else {
		c.misses++ // and here
	}
	c.last = k // and here
	return v
}

// Hits returns the number of lookups that found their key.
func (c *Cache) Hits() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hits
}

// Stats returns the hits, the misses and the last key looked up.
func (c *Cache) Stats() (hits, misses int, last string) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hits, c.misses, c.last
}
