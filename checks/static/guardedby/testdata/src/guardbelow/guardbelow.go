// Package guardbelow: the ways people document a guard on the mutex, not
// the field, with a background goroutine writing the fields.
package guardbelow

import "sync"

type Cache struct {
	// itemsLock protects 'items'.
	itemsLock sync.Mutex
	items     map[string]int

	// mu protects variables below
	mu   sync.RWMutex
	hits int
	size int

	misses int // ok: after a blank line, not covered

	// The following fields are protected by statsMu.
	statsMu sync.Mutex
	evicted int
	// +checklocks:statsMu
	loads int
}

func New() *Cache {
	c := &Cache{items: map[string]int{}}
	go c.janitor()
	return c
}

func (c *Cache) janitor() {
	for {
		c.itemsLock.Lock()
		c.items = map[string]int{}
		c.itemsLock.Unlock()
		c.mu.Lock()
		c.size = 0
		c.hits++
		c.mu.Unlock()
		c.statsMu.Lock()
		c.evicted++
		c.loads++
		c.statsMu.Unlock()
		c.misses++ // ok: not documented, and no majority
	}
}

func (c *Cache) Get(k string) int {
	return c.items[k] // want `field c.items read without holding c.itemsLock.*janitor runs on the goroutine`
}

func (c *Cache) Size() int {
	return c.size // want `field c.size read without holding c.mu.*janitor runs on the goroutine`
}

func (c *Cache) Hits() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.hits // ok
}

func (c *Cache) Evicted() int {
	return c.evicted // want `field c.evicted read without holding c.statsMu.*janitor runs on the goroutine`
}

func (c *Cache) Loads() int {
	return c.loads // want `field c.loads read without holding c.statsMu.*janitor runs on the goroutine`
}

func (c *Cache) Misses() int { return c.misses } // ok: undocumented, never locked
