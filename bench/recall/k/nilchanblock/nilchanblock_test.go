// Package nilchanblock: a goroutine reads the ready channel before start
// has made it and blocks forever on a nil channel.
package nilchanblock

import (
	"sync"
	"testing"
)

type service struct {
	mu    sync.Mutex
	ready chan struct{}
}

func (s *service) start() {
	s.mu.Lock()
	s.ready = make(chan struct{})
	s.mu.Unlock()
	close(s.ready)
}

func (s *service) awaitReady() {
	s.mu.Lock()
	ch := s.ready // nil before start
	s.mu.Unlock()
	<-ch
}

func TestStart(t *testing.T) {
	s := &service{}
	done := make(chan struct{})
	go func() { s.awaitReady(); close(done) }()
	s.start()
	<-done
}
