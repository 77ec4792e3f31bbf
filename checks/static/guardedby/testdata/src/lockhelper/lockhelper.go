// Package lockhelper: helpers that lock and return the unlock function,
// or lock for their caller, hold the documented lock.
package lockhelper

import "sync"

type Balancer struct {
	// mu protects the fields below.
	mu      sync.Mutex
	picks   int
	servers []string
}

func Start() *Balancer {
	b := &Balancer{}
	go b.refresh()
	return b
}

func (b *Balancer) lockAndGetUnlock() func() {
	b.mu.Lock()
	return b.mu.Unlock
}

func (b *Balancer) lock() { b.mu.Lock() }

func (b *Balancer) refresh() {
	for {
		unlock := b.lockAndGetUnlock()
		b.servers = append(b.servers[:0], "a", "b")
		unlock()
		b.lock()
		b.picks = 0
		b.mu.Unlock()
	}
}

func (b *Balancer) Pick() string {
	unlock := b.lockAndGetUnlock()
	defer unlock()
	b.picks++                                // ok: held through the returned unlock
	return b.servers[b.picks%len(b.servers)] // ok
}

func (b *Balancer) Picks() int {
	b.lock()
	defer b.mu.Unlock()
	return b.picks // ok: the helper locked it
}

// Servers releases the lock too early.
func (b *Balancer) Servers() []string {
	unlock := b.lockAndGetUnlock()
	unlock()
	return b.servers // want `field b.servers read without holding b.mu.*refresh runs on the goroutine`
}
