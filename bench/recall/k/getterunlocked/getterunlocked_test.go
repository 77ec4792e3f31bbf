// Package getterunlocked: the setter locks, the getter does not.
package getterunlocked

import (
	"sync"
	"testing"
)

type server struct {
	mu    sync.Mutex
	state string
}

func (s *server) setState(v string) {
	s.mu.Lock()
	s.state = v
	s.mu.Unlock()
}

func (s *server) getState() string {
	return s.state // reads without s.mu
}

func TestState(t *testing.T) {
	s := &server{state: "idle"}
	done := make(chan struct{})
	go func() { s.setState("running"); close(done) }()
	if v := s.getState(); v != "idle" && v != "running" {
		t.Fatalf("state %q", v)
	}
	<-done
}
