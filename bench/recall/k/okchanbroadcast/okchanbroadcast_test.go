// Package okchanbroadcast: the waiter reads the value and the channel in one
// critical section, so a change after it closes the channel it holds. Must
// not be reported.
package okchanbroadcast

import (
	"sync"
	"testing"
)

type config struct {
	mu      sync.Mutex
	val     int
	changed chan struct{}
}

func newConfig() *config { return &config{changed: make(chan struct{})} }

func (c *config) load() (int, <-chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.val, c.changed
}

func (c *config) set(v int) {
	c.mu.Lock()
	c.val = v
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *config) waitFor(want int) {
	for {
		v, ch := c.load()
		if v == want {
			return
		}
		<-ch
	}
}

func TestWaitFor(t *testing.T) {
	c := newConfig()
	go c.set(1)
	c.waitFor(1)
}
