// Package meter is the part of the kernel whose API the change changed.
package meter

import "sync"

// Meter is safe for concurrent use.
type Meter struct {
	mu      sync.Mutex
	stopped bool
	done    chan struct{}
}

// New returns a running meter.
func New() *Meter { return &Meter{done: make(chan struct{})} }

// Stop stops the meter once.
func (m *Meter) Stop() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.stopped {
		m.stopped = true
		close(m.done)
	}
}
