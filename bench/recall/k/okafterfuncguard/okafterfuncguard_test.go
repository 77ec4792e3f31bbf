// Package okafterfuncguard: the idle callback and Close agree under a
// mutex; a callback that runs after Close sends nothing. Must not be
// reported.
package okafterfuncguard

import (
	"sync"
	"testing"
	"time"
)

type conn struct {
	mu     sync.Mutex
	closed bool
	idle   *time.Timer
	events chan string
}

func dial(idle time.Duration) *conn {
	c := &conn{events: make(chan string, 1)}
	c.idle = time.AfterFunc(idle, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		if !c.closed {
			c.events <- "idle"
		}
	})
	return c
}

func (c *conn) Close() {
	c.idle.Stop()
	c.mu.Lock()
	c.closed = true
	close(c.events)
	c.mu.Unlock()
}

func TestIdle(t *testing.T) {
	c := dial(10 * time.Millisecond)
	time.Sleep(10 * time.Millisecond) // some work
	c.Close()
	for range c.events {
	}
}
