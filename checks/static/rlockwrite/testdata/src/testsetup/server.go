// Package testsetup: a server whose options are read without its lock,
// and tests that adjust them under the read lock before they start
// anything.
package testsetup

import (
	"sync"
	"time"
)

type Options struct {
	PingTimeout time.Duration
	ID          string
	Partitioned bool
}

type Server struct {
	mu      sync.RWMutex
	opts    *Options
	clients map[string]int
	state   int
}

func NewServer(opts *Options) *Server {
	return &Server{opts: opts, clients: map[string]int{}}
}

// start holds the lock for its whole run and reads an option there: the
// one access of opts under mu.
func (s *Server) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.Partitioned {
		s.state = 2
	}
	s.state = 1
}

func (s *Server) Run() { go s.start() }

// Other options are read under the lock (the run state beside them),
// so most accesses of opts hold mu; the ping timeout is read without it.
func (s *Server) describe() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.opts.ID
}

func (s *Server) partitioned() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opts.Partitioned && s.state > 0
}

func (s *Server) label() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.opts.Partitioned {
		return s.opts.ID + "/p"
	}
	return s.opts.ID
}

// The ping timeout and id are read without the lock.
func (s *Server) pingTimeout() time.Duration { return s.opts.PingTimeout }

func (s *Server) id() string { return s.opts.ID }

func (s *Server) ping(client string) bool {
	if s.pingTimeout() == 0 || s.id() == "" {
		return false
	}
	s.mu.RLock()
	_, ok := s.clients[client]
	s.mu.RUnlock()
	return ok
}

func (s *Server) register(client string) {
	s.mu.Lock()
	s.clients[client] = s.state
	s.mu.Unlock()
}

func (s *Server) count() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.clients)
}
