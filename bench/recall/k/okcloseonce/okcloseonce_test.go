// Package okcloseonce: stop closes its channel through a sync.Once. Must
// not be reported.
package okcloseonce

import (
	"sync"
	"testing"
)

type server struct {
	once sync.Once
	quit chan struct{}
}

func (s *server) stop() { s.once.Do(func() { close(s.quit) }) }

func TestStop(t *testing.T) {
	s := &server{quit: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.stop() }()
	go func() { defer wg.Done(); s.stop() }()
	wg.Wait()
	<-s.quit
}
