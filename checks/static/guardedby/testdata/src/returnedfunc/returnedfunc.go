// Package returnedfunc: a "must not be held" sentence in a method's doc
// that names another function (the closure the method returns) does not
// forbid calling the method itself with the lock (containerd's preStart).
package returnedfunc

import "sync"

type service struct {
	mu   sync.Mutex
	subs map[*int]bool
}

// preStart registers a subscriber and returns handleStarted, to be called
// after the start is published. Note that s.mu must not be held when
// calling handleStarted.
func (s *service) preStart() (handleStarted func()) {
	var sub int
	s.subs[&sub] = true // needs s.mu: the caller holds it
	return func() {
		s.mu.Lock()
		delete(s.subs, &sub)
		s.mu.Unlock()
	}
}

// flush empties the subscribers; s.mu must not be held when flush is called.
func (s *service) flush() {
	s.mu.Lock()
	s.subs = map[*int]bool{}
	s.mu.Unlock()
}

// drain: s.mu must not be held when calling drain; it takes the lock.
func (s *service) drain() {
	s.mu.Lock()
	clear(s.subs)
	s.mu.Unlock()
}

func (s *service) Start() {
	s.mu.Lock()
	handleStarted := s.preStart() // ok: the sentence is about handleStarted
	s.mu.Unlock()
	handleStarted()
}

func (s *service) Stop() {
	s.mu.Lock()
	s.flush() // want `call to s.flush while holding s.mu, which its documentation says must not be held`
	s.drain() // want `call to s.drain while holding s.mu, which its documentation says must not be held`
	s.mu.Unlock()
}
