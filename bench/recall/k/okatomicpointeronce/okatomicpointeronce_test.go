// Package okatomicpointeronce: clamp loads the configuration once. Must not
// be reported.
package okatomicpointeronce

import (
	"sync/atomic"
	"testing"
)

type limits struct{ min, max int }

type server struct {
	cfg atomic.Pointer[limits]
}

func (s *server) clamp(v int) int {
	l := s.cfg.Load()
	return max(l.min, min(v, l.max))
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
