// Package tally is a kernel of gen's check of its findings on the base
// commit (TestGenBaseVerdicts). Latch's bug is older than the change: this
// file is the same on the base commit. Gate's is the change's.
package tally

import "sync"

// Latch is safe for concurrent use.
type Latch struct {
	mu       sync.Mutex
	released bool
	done     chan struct{}
}

// NewLatch returns a held latch.
func NewLatch() *Latch { return &Latch{done: make(chan struct{})} }

// Release releases the latch once. It checks and sets under two locks:
// two Releases close the channel twice.
func (l *Latch) Release() {
	l.mu.Lock()
	released := l.released
	l.mu.Unlock()
	if released {
		return
	}
	l.mu.Lock()
	l.released = true
	l.mu.Unlock()
	close(l.done)
}

// Released reports whether the latch was released.
func (l *Latch) Released() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.released
}
