// Package sharedreply: a server goroutine takes requests from a queue and
// answers each on one reply channel shared by all callers; two callers
// whose requests are both queued can each take the other's answer.
package sharedreply

import (
	"testing"
)

type server struct {
	reqs    chan int
	replies chan int // shared: whoever receives first gets the answer
}

func newServer() *server {
	s := &server{reqs: make(chan int, 2), replies: make(chan int)} // requests queue
	go func() {
		for n := range s.reqs {
			s.replies <- n * n
		}
		close(s.replies)
	}()
	return s
}

func (s *server) square(n int) int {
	s.reqs <- n
	return <-s.replies
}

func TestSquare(t *testing.T) {
	s := newServer()
	defer close(s.reqs)
	errs := make(chan string, 2)
	for _, n := range []int{2, 3} {
		go func() {
			if got := s.square(n); got != n*n {
				errs <- "wrong answer"
				return
			}
			errs <- ""
		}()
	}
	for range 2 {
		if e := <-errs; e != "" {
			t.Fatal(e)
		}
	}
}
