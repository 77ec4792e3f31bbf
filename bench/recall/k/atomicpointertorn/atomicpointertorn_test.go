// Package atomicpointertorn: the configuration is swapped whole through an
// atomic.Pointer, but clamp loads it again for each field; a reload
// between two loads mixes the old and the new limits.
package atomicpointertorn

import (
	"sync/atomic"
	"testing"
)

type limits struct{ min, max int }

type server struct {
	cfg atomic.Pointer[limits]
}

func (s *server) clamp(v int) int {
	if v < s.cfg.Load().min {
		return s.cfg.Load().min
	}
	if v > s.cfg.Load().max {
		return s.cfg.Load().max // should use one Load for the whole call
	}
	return v
}

func TestClamp(t *testing.T) {
	s := &server{}
	s.cfg.Store(&limits{min: 0, max: 10})
	done := make(chan struct{})
	go func() {
		s.cfg.Store(&limits{min: 0, max: 100})
		close(done)
	}()
	got := s.clamp(50)
	<-done
	if got != 10 && got != 50 {
		t.Fatalf("clamp(50) = %d, want 10 (old limits) or 50 (new)", got)
	}
}
