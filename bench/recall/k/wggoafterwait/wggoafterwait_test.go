// Package wggoafterwait: the dispatcher, a goroutine the WaitGroup does
// not count, starts a handler with WaitGroup.Go for each event; Stop's
// Wait can return while an event is still queued, and its handler then
// sends on the closed results channel.
package wggoafterwait

import (
	"sync"
	"testing"
)

type Service struct {
	in  chan int
	out chan int
	wg  sync.WaitGroup
}

func Start() *Service {
	s := &Service{in: make(chan int, 4), out: make(chan int, 4)}
	go func() {
		for v := range s.in {
			s.wg.Go(func() { s.out <- v * v })
		}
	}()
	return s
}

func (s *Service) Stop() {
	close(s.in)
	s.wg.Wait() // the dispatcher may still start a handler
	close(s.out)
}

func TestStop(t *testing.T) {
	s := Start()
	s.in <- 2
	s.in <- 3
	if v := <-s.out; v != 4 && v != 9 {
		t.Fatalf("v = %d", v)
	}
	s.Stop()
	for range s.out {
	}
}
