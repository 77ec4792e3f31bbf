// Package valve is the head commit of a kernel of gen's check against the
// base commit (TestOnBase): Close now signals each close on a channel of
// one slot that nothing reads yet, so after Open, Close, Open the next
// Close blocks for ever (as gocron v1.15.0's Stop after a restart).
package valve

import "sync"

// Valve is safe for concurrent use.
type Valve struct {
	mu     sync.Mutex
	open   bool
	closed chan struct{}
}

// New returns a closed valve.
func New() *Valve { return &Valve{closed: make(chan struct{}, 1)} }

// Open opens the valve.
func (v *Valve) Open() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.open = true
}

// Close closes an open valve and signals it; a closed valve stays so.
func (v *Valve) Close() {
	v.mu.Lock()
	was := v.open
	v.open = false
	v.mu.Unlock()
	if was {
		v.closed <- struct{}{}
	}
}

// IsOpen reports whether the valve is open.
func (v *Valve) IsOpen() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.open
}
