// Package runlocktwice: a read path that finds a stale entry drops its read
// lock to evict it, then falls through to the deferred RUnlock: a second
// RUnlock. It happens only when the invalidation ran before the read.
package runlocktwice

import (
	"sync"
	"testing"
)

type entry struct {
	val   string
	stale bool
}

type cache struct {
	mu sync.RWMutex
	m  map[string]*entry
}

func (c *cache) get(k string) (string, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	e, ok := c.m[k]
	if ok && e.stale {
		c.mu.RUnlock() // upgrade to evict
		c.mu.Lock()
		delete(c.m, k)
		c.mu.Unlock()
		return "", false // the deferred RUnlock runs again
	}
	if !ok {
		return "", false
	}
	return e.val, true
}

func (c *cache) invalidate(k string) {
	c.mu.Lock()
	if e, ok := c.m[k]; ok {
		e.stale = true
	}
	c.mu.Unlock()
}

func TestGet(t *testing.T) {
	c := &cache{m: map[string]*entry{"k": {val: "v"}}}
	done := make(chan struct{})
	go func() { c.invalidate("k"); close(done) }()
	if v, ok := c.get("k"); ok && v != "v" {
		t.Fatalf("get = %q", v)
	}
	<-done
}
