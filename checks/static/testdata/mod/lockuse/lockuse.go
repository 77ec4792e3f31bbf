// Package lockuse's findings depend on lockdep's facts, which go vet
// computes when it analyzes lockdep for lockuse (facts only).
package lockuse

import (
	"sync"

	"example.com/mod/lockdep"
)

// Count takes t's lock through its wrapper, then calls Len, which takes
// it again: a self-deadlock only lockdep's facts show.
func Count(t *lockdep.Table) int {
	t.Lock()
	defer t.Unlock()
	return t.Len()
}

type server struct {
	mu sync.Mutex
	n  int
}

// mustBump keeps s.mu only on the path through lockdep.Fail, which never
// returns: not a missing unlock.
func (s *server) mustBump(ok bool) {
	s.mu.Lock()
	if !ok {
		lockdep.Fail("not ok")
		return
	}
	s.n++
	s.mu.Unlock()
}
