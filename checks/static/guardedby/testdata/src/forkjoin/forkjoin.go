// Package forkjoin: goroutines started and joined inside the starter's
// critical section run under its lock.
package forkjoin

import "sync"

type peer struct{ score int }

type Pool struct {
	mu sync.Mutex
	// guarded by mu
	peers []*peer
	// guarded by mu
	epoch int
}

func NewPool() *Pool {
	p := &Pool{}
	go p.loop()
	return p
}

func (p *Pool) loop() {
	for {
		p.mu.Lock()
		p.epoch++
		p.peers = p.peers[:0]
		p.mu.Unlock()
	}
}

// Rescore scores every peer in parallel while it holds p.mu; the workers
// read the epoch and are joined before the unlock.
func (p *Pool) Rescore() {
	p.mu.Lock()
	defer p.mu.Unlock()
	var wg sync.WaitGroup
	for _, x := range p.peers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x.score = p.epoch // ok: runs under p.mu
		}()
	}
	wg.Wait()
}

// Later joins after the unlock: the worker runs beside loop.
func (p *Pool) Later() {
	var wg sync.WaitGroup
	p.mu.Lock()
	wg.Add(1)
	go func() {
		defer wg.Done()
		p.epoch = 0 // want `field p\.epoch written without holding p\.mu`
	}()
	p.mu.Unlock()
	wg.Wait()
}
