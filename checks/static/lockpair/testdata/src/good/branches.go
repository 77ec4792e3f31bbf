package good

import (
	"log"
	"os"
)

func (s *S) earlyReturns(k int) int {
	s.mu.Lock()
	if k == 0 {
		s.mu.Unlock()
		return 0
	}
	if k < 0 {
		s.mu.Unlock()
		return -1
	}
	s.n = k
	s.mu.Unlock()
	return k
}

func (s *S) switchUnlock(k int) {
	s.mu.Lock()
	switch k {
	case 0:
		s.mu.Unlock()
	case 1:
		s.n++
		s.mu.Unlock()
	default:
		s.mu.Unlock()
	}
}

func (s *S) fatal() {
	s.mu.Lock()
	if s.n < 0 {
		log.Fatal("negative") // ok: the process exits
	}
	if s.n > 100 {
		os.Exit(2) // ok
	}
	if s.n > 50 {
		panic("too big") // ok: panics are not exits by default
	}
	s.mu.Unlock()
}

func (s *S) flag(c bool) {
	if c {
		s.mu.Lock()
	}
	s.n++
	if c {
		s.mu.Unlock() // ok: same condition
	}
}

func (s *S) unlockedFlag() {
	s.mu.Lock()
	unlocked := false
	if s.n > 0 {
		s.mu.Unlock()
		unlocked = true
	}
	if !unlocked {
		s.mu.Unlock() // ok: correlated through the flag
	}
}
