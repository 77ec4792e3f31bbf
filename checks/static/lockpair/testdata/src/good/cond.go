package good

func (s *S) waitReady() {
	s.mu.Lock()
	for !s.ready {
		s.cond.Wait()
	}
	s.n++
	s.mu.Unlock()
}

func (s *S) initOnce() {
	s.once.Do(func() {
		s.mu.Lock()
		s.items = []int{1}
		s.mu.Unlock()
	})
}

func (s *S) closureUnderLock() {
	s.mu.Lock()
	add := func(k int) { s.n += k } // runs under the caller's lock
	add(1)
	add(2)
	s.mu.Unlock()
}

func (s *S) goroutine() {
	s.mu.Lock()
	go func() {
		s.mu.Lock() // another goroutine: waits, does not deadlock
		s.n++
		s.mu.Unlock()
	}()
	s.mu.Unlock()
}
