// Package valve is the base commit of a kernel of gen's check against the
// base commit (TestOnBase): Close is correct here.
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

// IsOpen reports whether the valve is open.
func (v *Valve) IsOpen() bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.open
}
