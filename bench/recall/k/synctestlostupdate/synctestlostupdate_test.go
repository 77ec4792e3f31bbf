// Package synctestlostupdate: a test in a testing/synctest bubble, which
// fixes its clock but not its goroutines' order: the refresher reads the
// counter and writes it back in two critical sections, and the request
// the test counts between them is lost.
package synctestlostupdate

import (
	"sync"
	"testing"
	"testing/synctest"
)

type stats struct {
	mu       sync.Mutex
	requests int
}

func (s *stats) snapshot() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests
}

func (s *stats) inc() {
	s.mu.Lock()
	s.requests++
	s.mu.Unlock()
}

func TestRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var s stats
		go func() { // refresher: adds the baseline
			n := s.snapshot()
			s.mu.Lock()
			s.requests = n + 100 // should be one critical section
			s.mu.Unlock()
		}()
		s.inc()
		synctest.Wait()
		if got := s.snapshot(); got != 101 {
			t.Fatalf("requests = %d, want 101", got)
		}
	})
}
