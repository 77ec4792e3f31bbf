// Package lockupgrade: a cache miss takes the write lock while it still
// holds the read lock.
package lockupgrade

import (
	"sync"
	"testing"
)

type cache struct {
	mu sync.RWMutex
	m  map[string]string
}

func (c *cache) get(k string) string {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k]
	if !ok {
		c.mu.Lock() // upgrade: waits for our own read lock
		v = "computed:" + k
		c.m[k] = v
		c.mu.Unlock()
	}
	return v
}

func (c *cache) evict(k string) {
	c.mu.Lock()
	delete(c.m, k)
	c.mu.Unlock()
}

func TestGetEvict(t *testing.T) {
	c := &cache{m: map[string]string{"a": "x"}}
	done := make(chan struct{})
	go func() { c.evict("a"); close(done) }()
	if v := c.get("a"); v == "" {
		t.Fatal("empty value")
	}
	<-done
}
