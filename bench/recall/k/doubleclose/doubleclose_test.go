// Package doubleclose: stop closes its channel unless it is already
// closed, checked with a select; two stops can both see it open.
package doubleclose

import (
	"sync"
	"testing"
)

type server struct{ quit chan struct{} }

func (s *server) stop() {
	select {
	case <-s.quit: // already stopped
	default:
		close(s.quit) // close of closed channel when two stops race
	}
}

func TestStop(t *testing.T) {
	s := &server{quit: make(chan struct{})}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.stop() }()
	go func() { defer wg.Done(); s.stop() }()
	wg.Wait()
	<-s.quit
}
