package instance

import "testing"

// A test takes the server's locks in the reverse order of Add; tests
// are not reported.
func TestOrder(t *testing.T) {
	s := &Server{sessions: map[string]int{}}
	lockBoth(s)
}

func lockBoth(s *Server) {
	s.sessMu.Lock()
	s.mu.Lock()
	s.mu.Unlock()
	s.sessMu.Unlock()
}
