package good

func (s *S) deferUnlock() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n > 0 {
		return s.n
	}
	return 0
}

func (s *S) deferClosure() int {
	s.mu.Lock()
	defer func() {
		s.n++
		s.mu.Unlock()
	}()
	if s.ready {
		return 1
	}
	return 0
}

func (s *S) callerHoldsDefer() {
	s.mu.Unlock()
	defer s.mu.Lock()
	slow()
}

func (s *S) conditionalDeferred() {
	s.mu.Lock()
	locked := true
	defer func() {
		if locked {
			s.mu.Unlock()
		}
	}()
	if s.n > 0 {
		return
	}
	s.mu.Unlock()
	locked = false
}

func unlockRelock(s *S) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.mu.Unlock()
	slow()
	s.mu.Lock()
}
