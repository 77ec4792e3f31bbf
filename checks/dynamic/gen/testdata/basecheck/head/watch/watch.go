// Package watch is the part of the kernel (TestGenBaseVerdicts) where the
// change adds constructors (as fsnotify v1.7.0 added NewBufferedWatcher)
// and leaves an older bug as it was: a generated test built by a new
// constructor does not compile on the base commit, one built by New does.
package watch

import "sync"

// Watcher is safe for concurrent use.
type Watcher struct {
	mu     sync.Mutex
	closed bool
	done   chan struct{}
	events chan string
}

// New returns a watcher.
func New() *Watcher { return &Watcher{done: make(chan struct{})} }

// NewBuffered returns a watcher whose events channel holds n.
func NewBuffered(n uint) *Watcher {
	return &Watcher{done: make(chan struct{}), events: make(chan string, n)}
}

// NewNamed returns a watcher; the name is for the reader.
func NewNamed(name string) *Watcher { return New() }

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
