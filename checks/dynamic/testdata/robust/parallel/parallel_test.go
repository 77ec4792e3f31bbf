package parallel

import (
	"sync"
	"testing"
)

type counter struct {
	mu sync.Mutex
	n  int
}

func (c *counter) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

// TestParallelSubtests runs subtests that call t.Parallel; they share a
// counter guarded by a mutex, so no schedule may fail.
func TestParallelSubtests(t *testing.T) {
	c := &counter{}
	t.Run("group", func(t *testing.T) {
		for _, name := range []string{"a", "b", "c"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				var wg sync.WaitGroup
				wg.Add(1)
				go func() {
					defer wg.Done()
					c.add()
				}()
				c.add()
				wg.Wait()
			})
		}
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n != 6 {
		t.Errorf("n = %d after the parallel group, want 6", c.n)
	}
}

// seats hands out a limited number of seats, checking and taking in two
// critical sections: a check-then-act bug between concurrent callers.
type seats struct {
	mu   sync.Mutex
	left int
}

func (s *seats) take() {
	s.mu.Lock()
	ok := s.left > 0
	s.mu.Unlock()
	if !ok {
		return
	}
	s.mu.Lock()
	s.left--
	s.mu.Unlock()
}

// TestParallelSeats has two parallel subtests take the last seat. Run one
// after another they are fine; only when they really run in parallel can
// both see the seat free, so the search finds the bug only if t.Parallel
// keeps its meaning under the scheduler.
func TestParallelSeats(t *testing.T) {
	s := &seats{left: 1}
	t.Run("group", func(t *testing.T) {
		for _, name := range []string{"a", "b"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				s.take()
			})
		}
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.left < 0 {
		t.Errorf("%d seats left: two parallel subtests took the last one", s.left)
	}
}
