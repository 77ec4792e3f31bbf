package clockdep

import (
	"errors"
	"net"
	"sync"
	"time"
)

// Server plays a server that a test helper starts in the same process
// (nats-server's RunServer): its start-up runs on a goroutine of this
// module, outside the scheduler's control, and its readiness is polled on
// the clock, which the rewriter makes virtual here.
type Server struct {
	mu sync.Mutex
	ln net.Listener
}

// StartServer runs work (the server's own start-up) and then opens a
// listener on a goroutine of its own, and waits up to d for the listener,
// checking every 25ms (as nats-server's ReadyForConnections does).
func StartServer(work func(), d time.Duration) (*Server, error) {
	s := &Server{}
	go func() {
		work()
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return
		}
		s.mu.Lock()
		s.ln = ln
		s.mu.Unlock()
	}()
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		s.mu.Lock()
		ok := s.ln != nil
		s.mu.Unlock()
		if ok {
			return s, nil
		}
		time.Sleep(25 * time.Millisecond)
	}
	return nil, errors.New("unable to start the server")
}

// Close closes the listener.
func (s *Server) Close() error { return s.ln.Close() }
