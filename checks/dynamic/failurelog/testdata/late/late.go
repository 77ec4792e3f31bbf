// Package late is a kernel of a goroutine that outlives its test: under
// some schedules the test returns before the goroutine fails it, which go
// test reports as "panic: Fail in goroutine after TestX has completed".
package late

import "sync"

// Pool runs jobs until it is closed.
type Pool struct {
	mu     sync.Mutex
	closed bool
	done   int
}

// Do runs job and reports true, or reports false once the pool is closed.
func (p *Pool) Do(job func()) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	job()
	p.done++
	return true
}

// Close stops the pool.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
}
