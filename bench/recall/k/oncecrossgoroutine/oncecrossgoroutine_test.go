// Package oncecrossgoroutine: the function a sync.Once runs starts the
// client's loop and waits for it to be ready; the loop, when a request is
// already queued, asks for the client through the same Once, which waits
// for the function to return. Only a request queued before the loop's first
// check deadlocks.
package oncecrossgoroutine

import (
	"sync"
	"testing"
	"time"
)

type client struct {
	ready chan struct{}
	sent  []string
}

type service struct {
	once sync.Once
	c    *client

	mu      sync.Mutex
	pending []string
}

func (s *service) client() *client {
	s.once.Do(s.init)
	return s.c
}

func (s *service) init() {
	c := &client{ready: make(chan struct{})}
	go s.loop(c)
	<-c.ready
	s.c = c
}

func (s *service) loop(c *client) {
	s.mu.Lock()
	queued := len(s.pending) > 0
	s.mu.Unlock()
	if queued {
		s.flush() // through client(): waits for init, which waits for ready
	}
	close(c.ready)
}

func (s *service) enqueue(msg string) {
	s.mu.Lock()
	s.pending = append(s.pending, msg)
	s.mu.Unlock()
}

func (s *service) flush() {
	c := s.client()
	s.mu.Lock()
	c.sent = append(c.sent, s.pending...)
	s.pending = nil
	s.mu.Unlock()
}

func TestFlush(t *testing.T) {
	s := &service{}
	done := make(chan struct{})
	go func() {
		time.Sleep(time.Millisecond) // the request arrives a moment later
		s.enqueue("hello")
		close(done)
	}()
	s.client()
	<-done
	s.flush()
	if n := len(s.client().sent); n != 1 {
		t.Fatalf("sent %d", n)
	}
}
