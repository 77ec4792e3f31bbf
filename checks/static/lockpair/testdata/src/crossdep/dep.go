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

// Queue is drained by a caller that locked Mu and hands it over.
type Queue struct {
	Mu    sync.Mutex
	items []int
}

// Drain is called with q.Mu held: it releases it for the slow part and
// takes it again at the end, in a deferred closure.
func (q *Queue) Drain() int { // want Drain:"releases q.Mu"
	n := len(q.items)
	q.Mu.Unlock()
	defer func() {
		q.Mu.Lock()
		q.items = q.items[n:]
		q.Mu.Unlock()
	}()
	return n
}

// DrainSome releases q.Mu only when there is something to drain.
func (q *Queue) DrainSome() int {
	n := len(q.items)
	if n == 0 {
		return 0
	}
	q.Mu.Unlock()
	defer func() {
		q.Mu.Lock()
		q.items = q.items[n:]
		q.Mu.Unlock()
	}()
	return n
}
