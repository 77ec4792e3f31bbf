// Package cachedep plays a cache library the module under test depends
// on: the rewriter leaves its goroutines and locks as written (they are
// outside the scheduler's control) and puts its time operations on the
// virtual clock. New starts a janitor goroutine on a ticker that nothing
// ever stops: it outlives the test that made the cache.
package cachedep

import (
	"sync"
	"time"
)

// Cache maps keys to values; its janitor empties it every interval.
type Cache struct {
	mu sync.Mutex
	m  map[string]int
}

// New returns an empty cache; with a positive interval, a janitor
// goroutine empties it at every tick, for ever.
func New(interval time.Duration) *Cache {
	c := &Cache{m: map[string]int{}}
	if interval > 0 {
		go c.janitor(time.NewTicker(interval))
	}
	return c
}

func (c *Cache) janitor(t *time.Ticker) {
	for range t.C {
		c.mu.Lock()
		c.m = map[string]int{}
		c.mu.Unlock()
	}
}

// Set stores v under k.
func (c *Cache) Set(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

// Get returns the value under k.
func (c *Cache) Get(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

// SendLater sends v on ch from a goroutine of its own.
func SendLater(ch chan<- int, v int) {
	go func() { ch <- v }()
}
