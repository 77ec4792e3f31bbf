// Package q has a registry that refuses a name twice and a counter that
// loses updates.
package q

import (
	"sync"
	"sync/atomic"
)

var (
	regMu      sync.Mutex
	registered = map[string]bool{}
)

// Register records name; a second Register of one name panics.
func Register(name string) {
	regMu.Lock()
	defer regMu.Unlock()
	if registered[name] {
		panic("q: " + name + " registered twice")
	}
	registered[name] = true
}

// Counter counts Adds, but loses one when two Adds load n before either
// stores it.
type Counter struct {
	mu sync.Mutex
	n  atomic.Int64
}

// Add adds one to c.
func (c *Counter) Add() {
	v := c.n.Load() // outside the lock: the lost update
	c.mu.Lock()
	c.n.Store(v + 1)
	c.mu.Unlock()
}

// N is the count.
func (c *Counter) N() int64 { return c.n.Load() }
