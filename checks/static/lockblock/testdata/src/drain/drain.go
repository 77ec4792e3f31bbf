// Package drain: a range over a channel that the same critical section
// has just closed drains its buffer and ends; it never waits for a
// sender, so holding the lock every sender needs is no deadlock. A range
// whose channel is closed elsewhere, on one branch only, or replaced
// after the close still waits for a sender and is reported.
//
// The shape (written here, not copied): a buffer pool under a mutex;
// Put offers a buffer with a select-with-default send under the read
// lock; Resize swaps in a new channel, closes the old one and moves its
// buffers over; Close closes both channels and drains them, under the
// write lock.
package drain

import "sync"

type pool struct {
	mu     sync.RWMutex
	tokens chan struct{}
	bufs   chan *[]byte
}

func newPool(n int) *pool {
	return &pool{tokens: make(chan struct{}, n), bufs: make(chan *[]byte, n)}
}

func (p *pool) Put(b *[]byte) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	select {
	case p.bufs <- b:
	default:
	}
}

func (p *pool) Release() {
	p.mu.RLock()
	defer p.mu.RUnlock()
	select {
	case p.tokens <- struct{}{}:
	default:
	}
}

// Resize closes the old channel, then ranges over that same value: no
// report.
func (p *pool) Resize(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	old := p.bufs
	p.bufs = make(chan *[]byte, n)
	if old == nil {
		return
	}
	close(old)
	for b := range old {
		select {
		case p.bufs <- b:
		default:
		}
	}
}

func (p *pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.empty()
}

// empty runs under its callers' lock: each range follows the close of the
// same field with nothing in between: no report.
func (p *pool) empty() {
	if p.tokens != nil {
		close(p.tokens)
		for range p.tokens {
		}
		p.tokens = nil
	}
	if p.bufs != nil {
		close(p.bufs)
		for range p.bufs {
		}
		p.bufs = nil
	}
}

// queue is closed by stop, in another critical section: the range in
// flush waits for Push or stop, which both need the lock.
type queue struct {
	mu      sync.Mutex
	items   chan int
	closing bool
}

func newQueue() *queue { return &queue{items: make(chan int, 8)} }

func (q *queue) Push(v int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	select {
	case q.items <- v:
	default:
	}
}

func (q *queue) stop() {
	q.mu.Lock()
	defer q.mu.Unlock()
	close(q.items)
}

func (q *queue) flush(f func(int)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for v := range q.items { // want `range over channel q.items while holding q.mu, and every sender needs q.mu: deadlock`
		f(v)
	}
}

// drainIfClosing closes on one branch only: when closing is false the
// range waits.
func (q *queue) drainIfClosing(f func(int)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closing {
		close(q.items)
	}
	for v := range q.items { // want `range over channel q.items while holding q.mu, and every sender needs q.mu: deadlock`
		f(v)
	}
}

// reopen closes the channel, then stores a new one before the range: the
// range is over the new, open channel.
func (q *queue) reopen(f func(int)) {
	q.mu.Lock()
	defer q.mu.Unlock()
	close(q.items)
	q.items = make(chan int, 8)
	for v := range q.items { // want `range over channel q.items while holding q.mu, and every sender needs q.mu: deadlock`
		f(v)
	}
}
