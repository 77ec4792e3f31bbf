// Package oksynctestlocked: synctestlostupdate's refresher in one
// critical section, and a sleeper the bubble's clock wakes.
package oksynctestlocked

import (
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type stats struct {
	mu       sync.Mutex
	requests int
}

func (s *stats) add(n int) {
	s.mu.Lock()
	s.requests += n
	s.mu.Unlock()
}

func TestRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s stats
		go s.add(100)
		go func() {
			time.Sleep(time.Hour)
			s.add(1000)
		}()
		s.add(1)
		synctest.Wait() // the sleeper is durably blocked
		s.mu.Lock()
		got := s.requests
		s.mu.Unlock()
		if got != 101 {
			t.Fatalf("requests = %d, want 101", got)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.requests != 1101 {
			t.Fatalf("requests = %d, want 1101", s.requests)
		}
	})
}
