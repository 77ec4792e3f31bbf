// Package twice is a kernel of a test that fails only when it runs again
// in the same process (go test -count=2): it releases the package's
// default pool, and its second run submits to the released pool, drops
// the error and waits for work that never runs.
package twice

import (
	"errors"
	"sync"
)

// Pool runs submitted functions until it is released.
type Pool struct {
	mu       sync.Mutex
	released bool
}

// ErrReleased is Submit's error once the pool is released.
var ErrReleased = errors.New("pool released")

// Submit runs f on a goroutine of its own.
func (p *Pool) Submit(f func()) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.released {
		return ErrReleased
	}
	go f()
	return nil
}

// Release stops the pool for good.
func (p *Pool) Release() {
	p.mu.Lock()
	p.released = true
	p.mu.Unlock()
}

var defaultPool = &Pool{}

// Submit submits f to the default pool.
func Submit(f func()) error { return defaultPool.Submit(f) }

// Release releases the default pool.
func Release() { defaultPool.Release() }
