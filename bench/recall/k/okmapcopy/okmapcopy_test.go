// Package okmapcopy: the snapshot copies the map under the lock. Must not
// be reported.
package okmapcopy

import (
	"maps"
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
	return maps.Clone(r.peers)
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
