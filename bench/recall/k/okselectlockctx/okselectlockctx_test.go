// Package okselectlockctx: publish checks the state under the lock and
// selects after releasing it; stop's lock never waits for a send. Must not
// be reported.
package okselectlockctx

import (
	"context"
	"sync"
	"testing"
)

type publisher struct {
	mu     sync.Mutex
	seq    int
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
	p.seq++
	p.mu.Unlock()
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
