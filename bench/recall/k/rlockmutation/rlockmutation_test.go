// Package rlockmutation: a lookup holds only the read lock but fills a
// miss into the map: two readers write the map at once.
package rlockmutation

import (
	"sync"
	"testing"
)

type Cache struct {
	mu sync.RWMutex
	m  map[string]int
}

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	if !ok {
		v = len(k)
		c.m[k] = v // a write under the read lock
	}
	return v
}

func TestGet(t *testing.T) {
	c := &Cache{m: map[string]int{}}
	var wg sync.WaitGroup
	for _, k := range []string{"a", "bb"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Get(k)
		}()
	}
	wg.Wait()
	if c.Get("bb") != 2 {
		t.Fatal("bb")
	}
}
