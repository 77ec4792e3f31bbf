// Package inlined is a value built lazily: its small init method, which
// the compiler inlines into each caller, replaces a field inside a
// sync.Once closure, and two other methods read the field without the
// Once. One bug (the unsynchronized write), raced by a reader in one test
// and by another reader in another; Go names the closure after each caller
// it was inlined into (as zap's lazy core, whose one race was posted as
// two comments).
package inlined

import "sync"

// Lazy holds a buffer made on first use.
type Lazy struct {
	once sync.Once
	buf  []int
}

func (l *Lazy) init() {
	l.once.Do(func() {
		l.buf = make([]int, 0, 4) // the bug: Ready and Cap read buf without the Once
	})
}

// Warm makes the buffer now.
func (l *Lazy) Warm() { l.init() }

// Len returns the number of values.
func (l *Lazy) Len() int {
	l.init()
	return len(l.buf)
}

// Ready reports whether the buffer was made.
func (l *Lazy) Ready() bool { return l.buf != nil }

// Cap returns the buffer's capacity.
func (l *Lazy) Cap() int { return cap(l.buf) }
