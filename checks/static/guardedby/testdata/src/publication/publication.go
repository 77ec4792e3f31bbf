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

// Resync starts a goroutine while holding s.mu and waits for it before
// unlocking: the goroutine runs under the starter's lock.
func (s *Session) Resync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := make(chan int)
	go func() {
		done <- len(s.peers) // ok: s.mu is held by the starter until done
	}()
	<-done
}

func (s *Session) AddPeer(p string) {
	s.mu.Lock()
	s.peers[p] = true
	s.mu.Unlock()
}
