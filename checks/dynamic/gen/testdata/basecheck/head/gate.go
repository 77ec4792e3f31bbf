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

// Close closes the gate once. The change checks and sets under two locks:
// two Closes close the channel twice.
func (g *Gate) Close() {
	g.mu.Lock()
	closed := g.closed
	g.mu.Unlock()
	if closed {
		return
	}
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	close(g.done)
}
