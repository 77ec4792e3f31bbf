// Package stuck is a kernel of gen's sequential check: a case whose calls
// block for ever is dropped as soon as its goroutines are seen waiting on
// one another, not after the whole sequential timeout; a case whose calls
// wait on a timer, or on a goroutine that does, is not.
package stuck

import (
	"sync"
	"time"
)

// Plug is safe for concurrent use. Its second Close blocks for ever: the
// channel has room for one signal and nothing reads it.
type Plug struct {
	mu     sync.Mutex
	closes int
	out    chan struct{}
}

// NewPlug returns a plug.
func NewPlug() *Plug { return &Plug{out: make(chan struct{}, 1)} }

// Close counts the close and signals it.
func (p *Plug) Close() {
	p.mu.Lock()
	p.closes++
	p.mu.Unlock()
	p.out <- struct{}{}
}

// Closes returns how many closes began.
func (p *Plug) Closes() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closes
}

// napOnce makes the first nap of the process a long one: longer than the
// check's stuck window, far shorter than its timeout.
var napOnce sync.Once

const longNap = 2500 * time.Millisecond

// Nap is safe for concurrent use. The first Wait or Relay of the process
// waits longNap: Wait in a select on a timer, Relay on a channel a
// sleeping goroutine closes.
type Nap struct {
	mu   sync.Mutex
	naps int
}

// NewNap returns a nap.
func NewNap() *Nap { return &Nap{} }

// Wait naps once per process on a timer in a select.
func (n *Nap) Wait() {
	napOnce.Do(func() {
		select {
		case <-time.After(longNap):
		}
	})
	n.mu.Lock()
	n.naps++
	n.mu.Unlock()
}

// Relay naps once per process on a channel a sleeping goroutine closes.
func (n *Nap) Relay() {
	napOnce.Do(func() {
		woke := make(chan struct{})
		go func() {
			time.Sleep(longNap)
			close(woke)
		}()
		<-woke
	})
	n.mu.Lock()
	n.naps++
	n.mu.Unlock()
}

// Naps returns how many naps ended.
func (n *Nap) Naps() int {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.naps
}
