// Package rebootpool has a package-level default pool, as a worker-pool
// library does: Release closes it, Reboot reopens a closed one. Reboot
// starts the new pool's worker and then resets the count of workers, so
// the worker's count is lost when it runs first. A first run of a test
// never sees it: the default pool starts open, and only an earlier run's
// Release leaves it closed.
package rebootpool

import "sync"

// Pool counts its running workers.
type Pool struct {
	mu      sync.Mutex
	closed  bool
	running int
}

var defaultPool = &Pool{running: 1}

// Release closes the default pool and stops its workers.
func Release() {
	p := defaultPool
	p.mu.Lock()
	p.closed, p.running = true, 0
	p.mu.Unlock()
}

// Reboot reopens the default pool when it was released, with one worker.
func Reboot() {
	p := defaultPool
	p.mu.Lock()
	closed := p.closed
	p.closed = false
	p.mu.Unlock()
	if !closed {
		return
	}
	done := make(chan struct{})
	go func() {
		p.mu.Lock()
		p.running++
		p.mu.Unlock()
		close(done)
	}()
	p.mu.Lock()
	p.running = 0 // the bug: after the worker started, not before
	p.mu.Unlock()
	<-done
}

// Running is the default pool's count of workers.
func Running() int {
	p := defaultPool
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running
}
