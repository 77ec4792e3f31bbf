// Package okrlockwrite: rlockmutation filling the miss under the write
// lock.
package okrlockwrite

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
	v, ok := c.m[k]
	c.mu.RUnlock()
	if ok {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[k]; ok {
		return v
	}
	v = len(k)
	c.m[k] = v
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
