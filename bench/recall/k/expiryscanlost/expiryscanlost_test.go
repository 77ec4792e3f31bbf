// Package expiryscanlost: a session store whose Prune scans every session
// for its expiry (a clock read each) under the store's lock, then adds
// what it pruned to a counter in two critical sections: read, then write.
// Two pruners that both read before either writes lose one's count.
package expiryscanlost

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

type store struct {
	mu       sync.Mutex
	sessions map[string]time.Time // expiry
	pruned   int
}

func (s *store) prune(prefix string) {
	s.mu.Lock()
	n := 0
	for id, exp := range s.sessions {
		if id[:1] == prefix && time.Now().After(exp) {
			delete(s.sessions, id)
			n++
		}
	}
	s.mu.Unlock()
	s.mu.Lock()
	total := s.pruned
	s.mu.Unlock()
	s.mu.Lock()
	s.pruned = total + n
	s.mu.Unlock()
}

func TestPrune(t *testing.T) {
	s := &store{sessions: map[string]time.Time{}}
	past := time.Now().Add(-time.Minute)
	for i := 0; i < 150; i++ {
		s.sessions["a"+strconv.Itoa(i)] = past
		s.sessions["b"+strconv.Itoa(i)] = past
	}
	var wg sync.WaitGroup
	for _, p := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.prune(p)
		}()
	}
	wg.Wait()
	if s.pruned != 300 {
		t.Errorf("pruned %d, want 300", s.pruned)
	}
}
