// Package valve is the head commit of a kernel of gen's sequential check
// against the base (TestOnBaseNewConstructor): the change adds NewOpen,
// and Close now signals each close on a channel of one slot that nothing
// reads, so the second Close of an open valve blocks for ever.
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

// NewOpen returns an open valve.
func NewOpen() *Valve { return &Valve{open: true, closed: make(chan struct{}, 1)} }

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
