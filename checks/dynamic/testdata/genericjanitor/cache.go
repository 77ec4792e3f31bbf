// Package genericjanitor is a generic cache whose constructor starts a
// janitor goroutine on a ticker (go-generics-cache's New): New's janitor
// runs until Stop, and a test that never stops it leaves it behind.
package genericjanitor

import (
	"sync"
	"time"
)

type janitor struct {
	interval time.Duration
	done     chan struct{}
}

// run starts the janitor. Under plain go test its literal is
// (*janitor).run.func1; the rewrite makes the go statement a call, run is
// inlined into New and the literal is New[...].(*janitor).run.func2.
func (j *janitor) run(cleanup func()) {
	go func() {
		t := time.NewTicker(j.interval)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				cleanup()
			case <-j.done:
				return
			}
		}
	}()
}

// Cache maps keys to values that expire.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	items map[K]item[V]
	j     *janitor
}

type item[V any] struct {
	v   V
	exp time.Time
}

// New returns a cache whose janitor removes expired items every minute.
func New[K comparable, V any]() *Cache[K, V] {
	c := &Cache[K, V]{items: map[K]item[V]{}, j: &janitor{interval: time.Minute, done: make(chan struct{})}}
	c.j.run(c.deleteExpired)
	return c
}

// Stop stops the janitor.
func (c *Cache[K, V]) Stop() { close(c.j.done) }

// Set stores v under k for ttl.
func (c *Cache[K, V]) Set(k K, v V, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = item[V]{v: v, exp: time.Now().Add(ttl)}
}

// Len returns the number of items, expired or not.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}

func (c *Cache[K, V]) deleteExpired() {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := time.Now()
	for k, it := range c.items {
		if now.After(it.exp) {
			delete(c.items, k)
		}
	}
}
