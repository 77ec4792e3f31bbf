package annotated

import "sync"

type Server struct {
	mu sync.Mutex
	// conns is guarded by mu.
	conns int
	state string // protected by mu
	// +checklocks:mu
	epoch int
}

func (s *Server) Open() {
	s.mu.Lock()
	s.conns++
	s.mu.Unlock()
}

func (s *Server) Conns() int {
	return s.conns // want `field s.conns read without holding s.mu, which guards it by annotation`
}

func (s *Server) SetState(v string) {
	s.state = v // want `field s.state written without holding s.mu, which guards it by annotation`
}

func (s *Server) Bump() {
	s.epoch++ // want `field s.epoch written without holding s.mu, which guards it by annotation`
}

func (s *Server) Ok() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.epoch++ // ok
	return s.conns + len(s.state)
}

// Stream disclaims a guard: "Not guarded by mu" is not an annotation.
type Stream struct {
	mu sync.Mutex
	// Not guarded by mu.
	sentLast bool
	n        int // guarded by mu
}

func (s *Stream) CloseSend() {
	s.sentLast = true // ok: documented as not guarded
	s.mu.Lock()
	s.n++
	s.mu.Unlock()
}
