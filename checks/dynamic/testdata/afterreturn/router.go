// Package afterreturn is a router whose Close waits for its handlers up to
// a timeout (watermill's Router): a handler that never returns makes Close
// fail after it.
package afterreturn

import (
	"errors"
	"sync"
	"time"
)

// Router runs handlers and waits for them on Close.
type Router struct {
	CloseTimeout time.Duration
	running      sync.WaitGroup
	closing      chan struct{}
	once         sync.Once
}

// New returns a router whose Close waits up to 30 s.
func New() *Router {
	return &Router{CloseTimeout: 30 * time.Second, closing: make(chan struct{})}
}

// Handle runs h on its own goroutine, with the channel Close closes.
func (r *Router) Handle(h func(closing <-chan struct{})) {
	r.running.Add(1)
	go func() {
		defer r.running.Done()
		h(r.closing)
	}()
}

// Close tells the handlers to stop and waits for them, up to CloseTimeout.
func (r *Router) Close() error {
	r.once.Do(func() { close(r.closing) })
	done := make(chan struct{})
	go func() {
		r.running.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-time.After(r.CloseTimeout):
		return errors.New("router close timeout")
	}
}
