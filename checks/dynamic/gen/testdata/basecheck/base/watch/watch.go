// Package watch is the part of the kernel (TestGenBaseVerdicts) where the
// change adds a constructor and leaves an older bug as it was.
package watch

import "sync"

// Watcher is safe for concurrent use.
type Watcher struct {
	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

// New returns a watcher.
func New() *Watcher { return &Watcher{done: make(chan struct{})} }

// Close closes the watcher once. It checks and sets under two locks: two
// Closes close the channel twice.
func (w *Watcher) Close() {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return
	}
	w.mu.Lock()
	w.closed = true
	w.mu.Unlock()
	close(w.done)
}
