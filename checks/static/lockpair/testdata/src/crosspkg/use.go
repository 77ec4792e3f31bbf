package crosspkg

import (
	"crossdep"
	"sync"
)

type Wrapper struct {
	mu sync.Mutex
	s  *crossdep.Store
}

func (w *Wrapper) Reset(s *crossdep.Store) {
	s.Lock()
	s.Flush() // want `call to s.Flush locks s.mu, which is already held here \(locked at line 14\)`
	s.Unlock()
}

func (w *Wrapper) Fine(s *crossdep.Store) { // want Fine:"acquires s.mu, w.mu"
	s.Lock()
	defer s.Unlock()
	w.mu.Lock()
	w.mu.Unlock()
}

func nested() {
	crossdep.Global.Lock()
	defer crossdep.Global.Unlock()
	crossdep.WithGlobal(func() {}) // want `call to crossdep.WithGlobal locks crossdep.Global, which is already held here`
}

// Take hands q.Mu to Drain, which releases it.
func Take(q *crossdep.Queue, skip bool) int { // want Take:"acquires q.Mu"
	q.Mu.Lock()
	if skip {
		q.Mu.Unlock()
		return 0
	}
	return q.Drain()
}

// TakeSome hands q.Mu to DrainSome, which keeps it when the queue is empty.
func TakeSome(q *crossdep.Queue, skip bool) int { // want TakeSome:"acquires q.Mu"
	q.Mu.Lock()
	if skip {
		q.Mu.Unlock()
		return 0
	}
	return q.DrainSome() // want `q.Mu locked at line \d+ is still held at this return`
}
