// Package valve is the base commit of a kernel of gen's sequential check
// against the base (TestOnBaseNewConstructor): Close is correct here, and
// there is no NewOpen yet.
package valve

import "sync"

// Valve is safe for concurrent use.
type Valve struct {
	mu   sync.Mutex
	open bool
}

// New returns a closed valve.
func New() *Valve { return &Valve{} }

// Open opens the valve.
func (v *Valve) Open() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.open = true
}

// Close closes the valve; a closed valve stays so.
func (v *Valve) Close() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.open = false
}
