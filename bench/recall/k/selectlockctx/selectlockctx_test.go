// Package selectlockctx: publish holds the lock while it selects between
// the send and the context; stop takes the same lock before it cancels. A
// publish that locks first, with nobody receiving any more, waits for the
// cancel that stop cannot reach.
package selectlockctx

import (
	"context"
	"sync"
	"testing"
)

type publisher struct {
	mu     sync.Mutex // orders publishes with shutdown
	out    chan int
	ctx    context.Context
	cancel context.CancelFunc
}

func newPublisher() *publisher {
	ctx, cancel := context.WithCancel(context.Background())
	return &publisher{out: make(chan int), ctx: ctx, cancel: cancel}
}

func (p *publisher) publish(v int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case p.out <- v:
		return true
	case <-p.ctx.Done():
		return false
	}
}

func (p *publisher) stop() {
	p.mu.Lock()
	p.cancel()
	p.mu.Unlock()
}

func TestFirst(t *testing.T) {
	p := newPublisher()
	feed := make(chan int, 1)
	done := make(chan struct{})
	go func() { // forwards the feed to the subscriber until stopped
		for v := range feed {
			if !p.publish(v) {
				break
			}
		}
		close(done)
	}()
	feed <- 1
	if v := <-p.out; v != 1 {
		t.Fatalf("first = %d", v)
	}
	feed <- 2 // the subscriber wants one event only
	p.stop()
	<-done
}
