package testsetup

import (
	"testing"
	"time"
)

// checkPings shortens the ping timeout before any client exists: the
// server reads opts without mu, so the read lock guards nothing here.
func checkPings(t *testing.T, s *Server) {
	s.mu.RLock()
	s.opts.PingTimeout = 15 * time.Millisecond
	state := s.state
	s.mu.RUnlock()
	if state != 1 {
		t.Fatal("not started")
	}
	if s.ping("a") {
		t.Fatal("unknown client answered")
	}
}

func runServer(id string) *Server {
	s := NewServer(&Options{ID: id})
	s.Run()
	return s
}

func TestPings(t *testing.T) {
	checkPings(t, runServer("a"))
}

// A client map the server guards with mu, written by a test under the
// read lock: the server's readers take mu.
func TestFakeClient(t *testing.T) {
	s := runServer("b")
	s.register("x")
	s.mu.RLock()
	s.clients["y"] = 1 // want `map s.clients modified while holding only the read lock s.mu`
	s.mu.RUnlock()
	if s.count() != 2 {
		t.Fatal("count")
	}
}

// A test that starts its clients first: the write runs beside them.
func TestPingsLate(t *testing.T) {
	s := runServer("c")
	done := make(chan bool)
	go func() { done <- s.ping("a") }()
	s.mu.RLock()
	s.opts.PingTimeout = time.Millisecond // want `write through s.opts while holding only the read lock s.mu`
	s.mu.RUnlock()
	<-done
}
