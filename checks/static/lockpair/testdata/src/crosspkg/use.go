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
