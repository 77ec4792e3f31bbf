// Package okexpiryscan: expiryscanlost's session store with the pruned
// count added inside the scan's critical section: no update is lost.
package okexpiryscan

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
	defer s.mu.Unlock()
	for id, exp := range s.sessions {
		if id[:1] == prefix && time.Now().After(exp) {
			delete(s.sessions, id)
			s.pruned++
		}
	}
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
