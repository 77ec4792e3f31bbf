package good

import "sync"

type session struct {
	mu  sync.Mutex
	gen map[string]int
}

// A test steps the state through the versions it wants between critical
// sections: the test itself is the writer.
func stepGenerations(s *session) {
	s.mu.Lock()
	g := s.gen["ch"]
	s.gen["ch"] = g + 1
	s.mu.Unlock()
	s.mu.Lock()
	s.gen["ch"] = g + 2 // ok: test code
	s.mu.Unlock()
}
