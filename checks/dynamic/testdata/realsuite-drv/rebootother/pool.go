// Package rebootother is rebootpool's default pool with the release and
// the reboot in two tests: TestRebootAfterRelease fails only when
// TestReleaseDefaultPool ran before it in the same process (go test's
// order), and then only when Reboot's worker counts itself before Reboot
// resets the count. Run alone it always passes: the pool starts open.
package rebootother

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
