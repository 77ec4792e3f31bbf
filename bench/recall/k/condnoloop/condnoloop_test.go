// Package condnoloop: the waiter calls Cond.Wait without checking the
// condition, so a Signal sent before it waits is lost.
package condnoloop

import (
	"sync"
	"testing"
)

type gate struct {
	mu   sync.Mutex
	cond *sync.Cond
	open bool
}

func (g *gate) wait() {
	g.mu.Lock()
	g.cond.Wait() // should be: for !g.open { g.cond.Wait() }
	g.mu.Unlock()
}

func (g *gate) release() {
	g.mu.Lock()
	g.open = true
	g.cond.Signal()
	g.mu.Unlock()
}

func TestGate(t *testing.T) {
	g := &gate{}
	g.cond = sync.NewCond(&g.mu)
	go g.release()
	g.wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.open {
		t.Fatal("woke with the gate closed")
	}
}
