// Package longprefix has a process-wide registry of counters with a
// limit, as a metrics library has on the series it keeps: the first
// Limit counters a process registers are its own, every later one shares
// an overflow counter. The bug is in the overflow counter's Add, which
// reads the total and writes it back in two locked sections, so two adds
// can lose one. Only a run after a process's first Limit runs of a test
// that registers a counter can fail: its failure needs all of those
// earlier runs, and no clock is involved.
package longprefix

import "sync"

// Limit is how many counters the registry keeps apart.
const Limit = 400

var (
	registryMu sync.Mutex
	registered int
	overflow   = &Counter{shared: true}
)

// Counter totals what is added to it.
type Counter struct {
	mu     sync.Mutex
	total  int
	shared bool
}

// NewCounter registers a counter: a new one while the registry has room,
// else the overflow counter, which it shares with every later caller.
func NewCounter() *Counter {
	registryMu.Lock()
	defer registryMu.Unlock()
	if registered < Limit {
		registered++
		return &Counter{}
	}
	overflow.mu.Lock()
	overflow.total = 0
	overflow.mu.Unlock()
	return overflow
}

// Add adds n to the counter's total.
func (c *Counter) Add(n int) {
	if !c.shared {
		c.mu.Lock()
		c.total += n
		c.mu.Unlock()
		return
	}
	c.mu.Lock()
	v := c.total
	c.mu.Unlock()
	c.mu.Lock()
	c.total = v + n // the bug: another add may have come in between
	c.mu.Unlock()
}

// Total is the counter's total.
func (c *Counter) Total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.total
}
