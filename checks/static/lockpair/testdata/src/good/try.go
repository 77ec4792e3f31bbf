package good

import "sync"

func (s *S) tryLock() bool {
	if !s.mu.TryLock() {
		return false
	}
	s.n++
	s.mu.Unlock()
	return true
}

func (s *S) tryLockOk() {
	ok := s.mu.TryLock()
	if ok {
		defer s.mu.Unlock()
		s.n++
	}
}

func tryReadTwice(rw *sync.RWMutex) {
	if !rw.TryRLock() {
		return
	}
	if !rw.TryRLock() {
		rw.RUnlock()
		return
	}
	rw.RUnlock()
	rw.RUnlock()
}
