package threadsafe

import "sync"

type sched struct{}

func (s *sched) Flush() {}

// Publisher is safe for use by multiple goroutines (pubsub's Publisher:
// the scheduler is set once, nil to non-nil, under the lock).
type Publisher struct {
	mu      sync.RWMutex
	stopped bool
	sched   *sched
	backup  *sched
}

func (p *Publisher) init() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped || p.sched != nil {
		return
	}
	p.sched = &sched{}
	if p.backup == nil {
		p.backup = &sched{}
	}
}

func (p *Publisher) Publish() { p.init() }

// Stop checks under the lock, then uses the scheduler it saw set.
func (p *Publisher) Stop() {
	p.mu.Lock()
	noop := p.stopped || p.sched == nil
	p.stopped = true
	p.mu.Unlock()
	if noop {
		return
	}
	p.sched.Flush() // ok: set once, seen set under the lock
}

// Resume does the same under the read lock.
func (p *Publisher) Resume() {
	p.mu.RLock()
	noop := p.backup == nil
	p.mu.RUnlock()
	if noop {
		return
	}
	p.backup.Flush() // want `Resume reads p.backup without holding p.mu`
}

// Flush checks without the lock: it races with Stop and the first Publish.
func (p *Publisher) Flush() {
	if p.stopped || p.sched == nil { // want `Flush reads p.stopped without holding p.mu, which is held where stopped is written in Stop \(and 2 more accesses, listed as related\)`
		return
	}
	p.sched.Flush() // related position of the finding at line 57 (same method, same lock)
}

// Drop resets the backup: it is not set once.
func (p *Publisher) Drop() {
	p.mu.Lock()
	p.backup = nil
	p.mu.Unlock()
}
