// Package janitor tests a type whose constructor starts a janitor goroutine
// on a ticker that nothing stops (in a dependency, as a cache library's
// is): it outlives every schedule, blocked on a ticker of its own
// schedule that no later schedule can reach. TestWithoutJanitor is the
// same test without it: the baseline of its speed.
package janitor

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"cachedep"
)

// Store counts the values it stores in a cache.
type Store struct {
	mu    sync.Mutex
	n     int
	cache *cachedep.Cache
}

func NewStore(janitor bool) *Store {
	interval := time.Duration(0)
	if janitor {
		interval = time.Minute
	}
	return &Store{cache: cachedep.New(interval)}
}

func (s *Store) Put(k string, v int) {
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
	s.cache.Set(k, v)
}

func use(t *testing.T, s *Store) {
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.Put("k"+strconv.Itoa(i), i)
		}()
	}
	wg.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n != 2 {
		t.Errorf("stored %d values, want 2", s.n)
	}
}

func TestWithJanitor(t *testing.T) { use(t, NewStore(true)) }

func TestWithoutJanitor(t *testing.T) { use(t, NewStore(false)) }
