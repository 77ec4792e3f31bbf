// Package oncerecursive: the function passed to Once.Do runs hooks, and a
// hook registered meanwhile calls back into the same Once.
package oncerecursive

import (
	"sync"
	"testing"
)

type config struct {
	once   sync.Once
	mu     sync.Mutex
	hooks  []func()
	values map[string]string
}

func (c *config) onLoad(f func()) {
	c.mu.Lock()
	c.hooks = append(c.hooks, f)
	c.mu.Unlock()
}

func (c *config) get(k string) string {
	c.once.Do(c.load) // called from a hook, inside c.load: waits for itself
	return c.values[k]
}

func (c *config) load() {
	c.values = map[string]string{"mode": "fast"}
	c.mu.Lock()
	hooks := append([]func(){}, c.hooks...)
	c.mu.Unlock()
	for _, h := range hooks {
		h()
	}
}

func TestLoad(t *testing.T) {
	c := &config{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		c.onLoad(func() { _ = c.get("mode") })
	}()
	if v := c.get("mode"); v != "fast" {
		t.Fatalf("mode %q", v)
	}
	<-done
}
