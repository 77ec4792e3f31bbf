// Package chanbroadcaststale: a watched value is broadcast by closing a
// channel and replacing it. The waiter reads the value and the channel in
// two critical sections: a change between them closes the channel it has
// not fetched yet, and it waits on the new one, which nobody closes.
package chanbroadcaststale

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

func (c *config) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.val
}

func (c *config) watch() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.changed
}

func (c *config) set(v int) {
	c.mu.Lock()
	c.val = v
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *config) waitFor(want int) {
	for c.get() != want {
		<-c.watch() // a set between get and watch is missed
	}
}

func TestWaitFor(t *testing.T) {
	c := newConfig()
	go c.set(1)
	c.waitFor(1)
}
