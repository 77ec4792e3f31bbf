// Package okmapescapestruct: mapescapestruct's near miss: the snapshot
// copies the map under the lock, so the caller's range reads its own map.
package okmapescapestruct

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
	out := make(map[string]peer, len(r.peers))
	for k, v := range r.peers {
		out[k] = v
	}
	return out
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
