// Package okcondloop: Wait in a loop over the condition, checked under the
// lock. Must not be reported.
package okcondloop

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
	for !g.open {
		g.cond.Wait()
	}
	g.mu.Unlock()
}

func (g *gate) release() {
	g.mu.Lock()
	g.open = true
	g.cond.Broadcast()
	g.mu.Unlock()
}

func TestGate(t *testing.T) {
	g := &gate{}
	g.cond = sync.NewCond(&g.mu)
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() { defer wg.Done(); g.wait() }()
	}
	g.release()
	wg.Wait()
}
