// Package publication: values not shared yet need no lock, even with a
// goroutine in the package.
package publication

import "sync"

type Session struct {
	// mu protects the fields below.
	mu    sync.Mutex
	id    string
	peers map[string]bool
	state int
}

// NewSession sets up fields before the goroutine starts.
func NewSession(id string) *Session {
	s := &Session{}
	s.id = id                   // ok: constructor
	s.peers = map[string]bool{} // ok
	go s.run()
	return s
}

func (s *Session) run() {
	for {
		s.mu.Lock()
		s.state++
		s.peers["x"] = true
		s.mu.Unlock()
	}
}

// Open builds a value, sets it up, then hands it to a goroutine.
func Open(id string) *Session {
	s := new(Session)
	s.reset(id) // ok: s is not shared yet
	s.state = 1 // ok: fresh
	go s.run()
	return s
}

func (s *Session) reset(id string) {
	s.id = id
	s.state = 0
}

// start sets the state before the goroutine it starts sees the value.
func (s *Session) Restart() {
	s.mu.Lock()
	s.state = 0
	s.mu.Unlock()
}

func (s *Session) State() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state // ok
}
