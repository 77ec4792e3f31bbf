// Package mapescapestruct: mapescape with the map's values this package's
// structs. The snapshot locks, but returns the internal map; the caller
// ranges over it after the lock is released while another goroutine
// writes to it. The race detector names the runtime's generic range with
// the map's types whole, this package's path among them.
package mapescapestruct

import (
	"sync"
	"testing"
)

type peer struct {
	addr   string
	weight int
}

type registry struct {
	mu    sync.Mutex
	peers map[string]peer
}

func (r *registry) set(name string, p peer) {
	r.mu.Lock()
	r.peers[name] = p
	r.mu.Unlock()
}

func (r *registry) snapshot() map[string]peer {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.peers // should copy
}

func TestWeights(t *testing.T) {
	r := &registry{peers: map[string]peer{"a": {"10.0.0.1", 1}}}
	done := make(chan struct{})
	go func() {
		r.set("b", peer{"10.0.0.2", 2})
		close(done)
	}()
	total := 0
	for _, p := range r.snapshot() {
		total += p.weight
	}
	<-done
	if total != 1 && total != 3 {
		t.Fatalf("total = %d", total)
	}
}
