package foreignreply

import (
	"sync"
	"testing"
	"time"

	"dep"
)

// server answers requests on its own goroutine, replying from a select
// that also watches for shutdown (as gocron's scheduler answers Jobs()).
type server struct {
	reqs chan chan int
	quit chan struct{}
	wg   sync.WaitGroup
	n    int
}

func start() *server {
	s := &server{reqs: make(chan chan int), quit: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			select {
			case out := <-s.reqs:
				s.n++
				select {
				case out <- s.n:
				case <-s.quit:
					return
				}
			case <-s.quit:
				return
			}
		}
	}()
	return s
}

// count asks the server; it gives up (0) once the server stopped.
func (s *server) count() int {
	out := make(chan int)
	select {
	case s.reqs <- out:
	case <-s.quit:
		return 0
	}
	select {
	case n := <-out:
		return n
	case <-s.quit:
		return 0
	}
}

func (s *server) stop() {
	close(s.quit)
	s.wg.Wait()
}

// The condition of dep.Eventually (testify's Eventually) runs on a
// goroutine outside control and calls the server: the server's reply,
// a send case of a select, must reach it.
func TestReplyToPoller(t *testing.T) {
	s := start()
	defer s.stop()
	if !dep.Eventually(func() bool { return s.count() >= 3 }, 5*time.Second, time.Millisecond) {
		t.Fatal("the server's replies never reached the poller")
	}
}

// While the test waits in dep.Eventually (on the real clock) and its
// condition keeps calling the server, a timer of the program fires, as it
// would for real or in a synctest bubble (where the poller's ticks move
// the clock): gocron's tests wait so for a job to run.
func TestTimerFiresWhilePolled(t *testing.T) {
	s := start()
	defer s.stop()
	fired := make(chan struct{})
	time.AfterFunc(100*time.Millisecond, func() { close(fired) })
	if !dep.Eventually(func() bool {
		s.count()
		select {
		case <-fired:
			return true
		default:
			return false
		}
	}, time.Second, 10*time.Millisecond) {
		t.Fatal("the 100ms timer did not fire within the poller's second")
	}
}
