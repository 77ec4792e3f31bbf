package corpus

import (
	"sync"
	"sync/atomic"
)

// Bin holds items; Absorb moves another bin's items into it. It is safe
// for concurrent use.
//
// (It is not: Absorb locks its own bin, then the other, so a.Absorb(b)
// and b.Absorb(a) at once deadlock.)
type Bin struct {
	mu    sync.Mutex
	items []string
}

// NewBin returns an empty bin.
func NewBin() *Bin { return &Bin{} }

// Add puts s in the bin.
func (b *Bin) Add(s string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items = append(b.items, s)
}

// Absorb moves o's items into b.
func (b *Bin) Absorb(o *Bin) {
	if o == b {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	o.mu.Lock()
	defer o.mu.Unlock()
	b.items = append(b.items, o.items...)
	o.items = nil
}

// Len is the number of items.
func (b *Bin) Len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}

// crates numbers the crates, which Absorb locks in that order.
var crates atomic.Uint64

// Crate is Bin done right: Absorb locks the two crates in the order they
// were made. It is safe for concurrent use.
type Crate struct {
	mu    sync.Mutex
	id    uint64
	items []string
}

// NewCrate returns an empty crate.
func NewCrate() *Crate { return &Crate{id: crates.Add(1)} }

// Add puts s in the crate.
func (c *Crate) Add(s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items = append(c.items, s)
}

// Absorb moves o's items into c.
func (c *Crate) Absorb(o *Crate) {
	if o == c {
		return
	}
	first, second := c, o
	if o.id < c.id {
		first, second = o, c
	}
	first.mu.Lock()
	defer first.mu.Unlock()
	second.mu.Lock()
	defer second.mu.Unlock()
	c.items = append(c.items, o.items...)
	o.items = nil
}

// Len is the number of items.
func (c *Crate) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
