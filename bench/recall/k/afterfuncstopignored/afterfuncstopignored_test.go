// Package afterfuncstopignored: Close stops the idle timer and closes the
// events channel, ignoring Stop's result. When the timer has already
// fired, its callback runs anyway and sends on the closed channel.
package afterfuncstopignored

import (
	"testing"
	"time"
)

type conn struct {
	idle   *time.Timer
	events chan string
}

func dial(idle time.Duration) *conn {
	c := &conn{events: make(chan string, 1)}
	c.idle = time.AfterFunc(idle, func() { c.events <- "idle" })
	return c
}

func (c *conn) Close() {
	c.idle.Stop() // false when the callback has started
	close(c.events)
}

func TestIdle(t *testing.T) {
	c := dial(10 * time.Millisecond)
	time.Sleep(10 * time.Millisecond) // some work
	c.Close()
	for range c.events {
	}
}
