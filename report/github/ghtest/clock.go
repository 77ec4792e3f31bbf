package ghtest

import (
	"context"
	"sync"
	"time"
)

// Clock is a fake of the publisher's clock (github.Clock): it advances only
// when slept on, so waits cost no time.
type Clock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

// NewClock returns a Clock at 2026-11-23 12:00 UTC.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Sleep moves the clock d on at once and returns ctx.Err().
func (c *Clock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d > 0 {
		c.now = c.now.Add(d)
		c.slept = append(c.slept, d)
	}
	return ctx.Err()
}

// Slept lists the waits slept, in order.
func (c *Clock) Slept() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.slept...)
}

// Total is the time slept in all.
func (c *Clock) Total() time.Duration {
	var t time.Duration
	for _, d := range c.Slept() {
		t += d
	}
	return t
}
