package crossdep

import "sync"

type Store struct {
	mu sync.Mutex
	m  map[string]int
}

func (s *Store) Flush() { // want Flush:"acquires s.mu"
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m = nil
}

func (s *Store) Lock() { // want Lock:"acquires s.mu; holds s.mu"
	s.mu.Lock()
}

func (s *Store) Unlock() { // want Unlock:"releases s.mu"
	s.mu.Unlock()
}

var Global sync.Mutex

func WithGlobal(f func()) { // want WithGlobal:"acquires Global"
	Global.Lock()
	defer Global.Unlock()
	f()
}
