// Package async holds a pool that makes its items in the background, as
// puddle's TryAcquire does, and a ticket counter that is broken. gen's
// oracle must not call the pool's answers non-linearizable (a Take that
// finds the item still being made says so, by design), and must still
// find the counter's duplicate tickets.
package async

import (
	"errors"
	"sync"
)

// ErrNotReady says no item is ready yet; one is being made.
var ErrNotReady = errors.New("no item ready")

// Pool hands out items it makes in the background. It is safe for
// concurrent use.
type Pool struct {
	mu     sync.Mutex
	ready  []int
	making bool
	made   int
}

// NewPool returns an empty pool.
func NewPool() *Pool { return &Pool{} }

// Take returns a ready item, or ErrNotReady after it started making one
// in the background.
func (p *Pool) Take() (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if n := len(p.ready); n > 0 {
		it := p.ready[n-1]
		p.ready = p.ready[:n-1]
		return it, nil
	}
	if !p.making {
		p.making = true
		go p.make()
	}
	return 0, ErrNotReady
}

func (p *Pool) make() {
	it := build()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.made++
	p.ready = append(p.ready, it)
	p.making = false
}

func build() int { return 42 }

// Tickets hands out numbered tickets. It is safe for concurrent use.
//
// (It is not: Next reads and advances the counter in two critical
// sections, so two concurrent calls can get the same ticket.)
type Tickets struct {
	mu   sync.Mutex
	next int
}

// NewTickets returns a counter at 0.
func NewTickets() *Tickets { return &Tickets{} }

// Next returns the next ticket.
func (t *Tickets) Next() int {
	t.mu.Lock()
	n := t.next
	t.mu.Unlock()
	t.mu.Lock()
	t.next = n + 1
	t.mu.Unlock()
	return n
}
