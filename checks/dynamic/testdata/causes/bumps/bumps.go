// Package bumps has two lost updates, in two methods that each read with
// the shared Get, then write with Set: two causes, though a failing
// schedule of either is preempted inside the one helper both call. Two
// findings.
package bumps

import "sync"

// C maps keys to counts.
type C struct {
	mu sync.Mutex
	m  map[int]int
}

// New returns an empty C.
func New() *C { return &C{m: map[int]int{}} }

// Set sets k's count.
func (c *C) Set(k, v int) { c.mu.Lock(); c.m[k] = v; c.mu.Unlock() }

// Get returns k's count.
func (c *C) Get(k int) int { c.mu.Lock(); defer c.mu.Unlock(); return c.m[k] }

// BumpA reads, then writes: an update can be lost.
func (c *C) BumpA() { v := c.Get(0); c.Set(0, v+1) }

// BumpB reads, then writes: an update can be lost.
func (c *C) BumpB() { v := c.Get(1); c.Set(1, v+1) }
