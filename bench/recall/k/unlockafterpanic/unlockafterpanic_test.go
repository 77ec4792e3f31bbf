// Package unlockafterpanic: a worker recovers from a panic raised while it
// holds a lock it unlocks without defer, so the lock stays held.
package unlockafterpanic

import (
	"sync"
	"testing"
)

type store struct {
	mu sync.Mutex
	m  map[string]int
}

func (s *store) set(k string, v int) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false // the panic is swallowed; s.mu stays locked
		}
	}()
	s.mu.Lock()
	s.m[k] = v // panics on a nil map
	s.mu.Unlock()
	return true
}

func TestSet(t *testing.T) {
	s := &store{}
	done := make(chan bool)
	go func() { done <- s.set("a", 1) }()
	s.mu.Lock()
	s.m = make(map[string]int)
	s.mu.Unlock()
	<-done
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.m) > 1 {
		t.Fatalf("%d keys", len(s.m))
	}
}
