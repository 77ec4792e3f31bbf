package tally

import "sync"

// Gate is safe for concurrent use.
type Gate struct {
	mu     sync.Mutex
	closed bool
	done   chan struct{}
}

// NewGate returns an open gate.
func NewGate() *Gate { return &Gate{done: make(chan struct{})} }

// Close closes the gate once.
func (g *Gate) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		close(g.done)
	}
}
