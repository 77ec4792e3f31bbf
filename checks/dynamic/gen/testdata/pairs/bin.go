// Package bin is a kernel for gen's pairs of a changed method: the first
// Fill of a bin (the change) sets its capacity outside the lock, so it
// races only with Room, an observer that reads it under the lock, and
// Stats, a reader whose snapshot is a pointer (puddle's Stat), on a bin
// no Fill came to before; Fill against Fill is ordered, and no other
// pair of Bin's methods races.
package bin

import "sync"

// Bin holds named items and a fill level. It is safe for concurrent use.
type Bin struct {
	mu       sync.Mutex
	items    map[string]int
	opened   bool
	sealed   bool
	level    int
	capacity int
}

// New returns an empty bin.
func New() *Bin { return &Bin{items: map[string]int{}} }

// Fill adds n to the level; the first Fill sets the capacity. The change
// moved that write out of the lock.
func (b *Bin) Fill(n int) {
	b.mu.Lock()
	first := !b.opened
	b.opened = true
	b.level += n
	b.mu.Unlock()
	if first {
		b.capacity = 100
	}
}

// Room is how much more the bin holds.
func (b *Bin) Room() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.capacity - b.level
}

// Stats is a snapshot of a bin.
type Stats struct {
	Level, Capacity, Items int
}

// Stats returns the bin's numbers.
func (b *Bin) Stats() *Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return &Stats{Level: b.level, Capacity: b.capacity, Items: len(b.items)}
}

// Sealed marks the bin sealed and returns it, for chaining: a setter,
// not a reader.
func (b *Bin) Sealed() *Bin {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.sealed = true
	return b
}

// Put stores v under k.
func (b *Bin) Put(k string, v int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.items[k] = v
}

// Get returns what k holds.
func (b *Bin) Get(k string) (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.items[k]
	return v, ok
}

// Drop removes k.
func (b *Bin) Drop(k string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.items, k)
}

// Count is the number of items.
func (b *Bin) Count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.items)
}

// Has reports whether k is held.
func (b *Bin) Has(k string) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	_, ok := b.items[k]
	return ok
}

// Clear drops every item.
func (b *Bin) Clear() {
	b.mu.Lock()
	defer b.mu.Unlock()
	clear(b.items)
}
