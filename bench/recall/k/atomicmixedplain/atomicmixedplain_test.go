// Package atomicmixedplain: the counter is incremented with atomic.AddInt64
// but read and reset with plain loads and stores: a data race, and an
// increment between the read and the reset is lost.
package atomicmixedplain

import (
	"sync"
	"sync/atomic"
	"testing"
)

type stats struct{ reqs int64 }

func (s *stats) inc() { atomic.AddInt64(&s.reqs, 1) }

// flush reports the count since the last flush.
func (s *stats) flush() int64 {
	n := s.reqs // plain read
	s.reqs = 0  // plain reset
	return n
}

func TestFlush(t *testing.T) {
	var s stats
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 3 {
			s.inc()
		}
	})
	total := s.flush()
	wg.Wait()
	total += s.flush()
	if total != 3 {
		t.Fatalf("total %d", total)
	}
}
