// Package outerguard: fields of an embedded struct guarded by the outer
// struct's mutex, shared with a background goroutine.
package outerguard

import "sync"

type counters struct {
	sent, dropped int
}

type Conn struct {
	mu sync.Mutex // guards the following
	counters
	closed bool
}

func Dial() *Conn {
	c := &Conn{}
	go c.writeLoop()
	return c
}

func (c *Conn) writeLoop() {
	for i := 0; ; i++ {
		c.mu.Lock()
		if c.closed {
			c.mu.Unlock()
			return
		}
		c.sent++
		c.mu.Unlock()
	}
}

// Sent reads a promoted field of the embedded counters without c.mu.
func (c *Conn) Sent() int {
	return c.sent // want `field c.sent \(in embedded counters\) read without holding c.mu.*writeLoop runs on the goroutine`
}

// Dropped is only ever read: no write after construction.
func (c *Conn) Dropped() int { return c.dropped } // want `field c.dropped .*\(no goroutine evidence\)`

func (c *Conn) Close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
}

// Stats reads both under the lock.
func (c *Conn) Stats() counters {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counters // ok
}
