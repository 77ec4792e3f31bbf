// Package good holds lock idioms lockpair must stay silent on, one file
// per topic.
package good

import "sync"

type S struct {
	mu    sync.Mutex
	rw    sync.RWMutex
	cond  *sync.Cond
	once  sync.Once
	ready bool
	n     int
	items []int
}

func (s *S) readTwice() int {
	s.rw.RLock()
	n := s.n
	s.rw.RLock() // recursive read lock: left to the dynamic search
	n += len(s.items)
	s.rw.RUnlock()
	s.rw.RUnlock()
	return n
}

type Account struct {
	mu  sync.Mutex
	bal int
}

// consistent lock order across functions
func transfer(a, b *Account, n int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	a.bal -= n
	b.bal += n
}

func (s *S) localMutex() {
	var mu sync.Mutex
	mu.Lock()
	s.n++
	mu.Unlock()
}
