// Package statsmixedlock: one counter of a struct is updated under its
// lock, the other outside it.
package statsmixedlock

import (
	"sync"
	"testing"
)

type stats struct {
	mu     sync.Mutex
	hits   int
	misses int
}

func (s *stats) record(hit bool) {
	if !hit {
		s.misses++ // outside s.mu
		return
	}
	s.mu.Lock()
	s.hits++
	s.mu.Unlock()
}

func TestRecord(t *testing.T) {
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.record(false) }()
	go func() { defer wg.Done(); s.record(false) }()
	wg.Wait()
	if s.misses > 2 {
		t.Fatalf("misses %d", s.misses)
	}
}
