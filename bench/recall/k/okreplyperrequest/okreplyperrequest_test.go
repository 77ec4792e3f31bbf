// Package okreplyperrequest: each request carries its own reply channel.
// Must not be reported.
package okreplyperrequest

import (
	"testing"
)

type request struct {
	n     int
	reply chan int
}

type server struct{ reqs chan request }

func newServer() *server {
	s := &server{reqs: make(chan request)}
	go func() {
		for r := range s.reqs {
			r.reply <- r.n * r.n
		}
	}()
	return s
}

func (s *server) square(n int) int {
	r := request{n: n, reply: make(chan int, 1)}
	s.reqs <- r
	return <-r.reply
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
