// Package mapescape: the snapshot method locks, but returns the internal
// map itself; the caller ranges over it after the lock is released while
// another goroutine writes to it.
package mapescape

import (
	"sync"
	"testing"
)

type registry struct {
	mu    sync.Mutex
	peers map[string]int
}

func (r *registry) set(name string, weight int) {
	r.mu.Lock()
	r.peers[name] = weight
	r.mu.Unlock()
}

func (r *registry) snapshot() map[string]int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.peers // should copy
}

func TestWeights(t *testing.T) {
	r := &registry{peers: map[string]int{"a": 1}}
	done := make(chan struct{})
	go func() {
		r.set("b", 2)
		close(done)
	}()
	total := 0
	for _, w := range r.snapshot() {
		total += w
	}
	<-done
	if total != 1 && total != 3 {
		t.Fatalf("total = %d", total)
	}
}
