// Package meter is the part of the kernel whose API the change changed:
// Stop takes a reason now, so its generated test does not compile on the
// base commit.
package meter

import "sync"

// Meter is safe for concurrent use.
type Meter struct {
	mu      sync.Mutex
	stopped bool
	reason  string
	done    chan struct{}
}

// New returns a running meter.
func New() *Meter { return &Meter{done: make(chan struct{})} }

// Stop stops the meter once, for reason. It checks and sets under two
// locks: two Stops close the channel twice.
func (m *Meter) Stop(reason string) {
	m.mu.Lock()
	stopped := m.stopped
	m.mu.Unlock()
	if stopped {
		return
	}
	m.mu.Lock()
	m.stopped, m.reason = true, reason
	m.mu.Unlock()
	close(m.done)
}
