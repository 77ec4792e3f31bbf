// Package okcascap: a capped counter with a CompareAndSwap loop. Must not
// be reported.
package okcascap

import (
	"sync"
	"sync/atomic"
	"testing"
)

type slots struct {
	used atomic.Int32
	max  int32
}

func (s *slots) acquire() bool {
	for {
		n := s.used.Load()
		if n >= s.max {
			return false
		}
		if s.used.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

func TestAcquire(t *testing.T) {
	s := &slots{max: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.acquire() }()
	go func() { defer wg.Done(); s.acquire() }()
	wg.Wait()
	if n := s.used.Load(); n != 1 {
		t.Fatalf("%d slots used, want 1", n)
	}
}
