// Package atomiccap: a capped counter checks the cap and increments in two
// separate atomic operations.
package atomiccap

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
	if s.used.Load() >= s.max {
		return false
	}
	s.used.Add(1) // another acquire may have passed the check too
	return true
}

func TestAcquire(t *testing.T) {
	s := &slots{max: 1}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.acquire() }()
	go func() { defer wg.Done(); s.acquire() }()
	wg.Wait()
	if n := s.used.Load(); n > s.max {
		t.Fatalf("%d slots used, max %d", n, s.max)
	}
}
