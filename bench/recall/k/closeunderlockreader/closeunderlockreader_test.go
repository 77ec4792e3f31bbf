// Package closeunderlockreader: the reader holds the lock while it waits
// for the channel that the closer closes only after taking the same lock.
package closeunderlockreader

import (
	"sync"
	"testing"
)

type stream struct {
	mu     sync.Mutex
	data   chan int
	closed bool
}

func (s *stream) next() (int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, false
	}
	v, ok := <-s.data // waits with s.mu held
	return v, ok
}

func (s *stream) close() {
	s.mu.Lock()
	s.closed = true
	close(s.data)
	s.mu.Unlock()
}

func TestClose(t *testing.T) {
	s := &stream{data: make(chan int)}
	done := make(chan struct{})
	go func() { s.next(); close(done) }()
	s.close()
	<-done
}
