package bad

import (
	"sync"
	"time"
)

type Server struct {
	mu     sync.Mutex
	rw     sync.RWMutex
	events chan int
	done   chan struct{}
	wg     sync.WaitGroup
	cond   *sync.Cond
	other  sync.Mutex
}

func New() *Server {
	s := &Server{events: make(chan int), done: make(chan struct{})}
	s.cond = sync.NewCond(&s.other)
	return s
}

func (s *Server) Publish(v int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.events <- v // want `send on channel s.events while holding s.mu`
}

func (s *Server) Next() int {
	s.rw.RLock()
	v := <-s.events // want `receive from channel s.events while holding s.rw`
	s.rw.RUnlock()
	return v
}

func (s *Server) Drain() {
	s.mu.Lock()
	for v := range s.events { // want `range over channel s.events while holding s.mu`
		_ = v
	}
	s.mu.Unlock()
}

func (s *Server) Await() {
	s.mu.Lock()
	select { // want `select without default while holding s.mu`
	case <-s.done:
	case v := <-s.events:
		_ = v
	}
	s.mu.Unlock()
}

func (s *Server) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.wg.Wait() // want `s.wg.Wait\(\) called while holding s.mu`
}

func (s *Server) Backoff() {
	s.mu.Lock()
	time.Sleep(time.Millisecond) // want `time.Sleep called while holding s.mu`
	s.mu.Unlock()
}

func (s *Server) WaitOther() {
	s.mu.Lock()
	s.other.Lock()
	s.cond.Wait() // want `s.cond.Wait\(\) releases only s.other while holding s.mu`
	s.other.Unlock()
	s.mu.Unlock()
}

func (s *Server) Unbuffered() {
	ch := make(chan int)
	s.mu.Lock()
	func() {
		ch <- 1 // want `send on channel ch while holding s.mu`
	}()
	s.mu.Unlock()
}

var mu sync.Mutex

func Global(ch chan int) {
	mu.Lock()
	defer mu.Unlock()
	ch <- 1 // want `send on channel ch while holding mu`
}

func Try(s *Server) {
	if s.mu.TryLock() {
		<-s.done // want `receive from channel s.done while holding s.mu`
		s.mu.Unlock()
	}
}

// A helper whose deferred literal releases another lock than the one it
// takes after the defer statement: it returns holding sessionMu.
type Consumer struct {
	otherMu   sync.Mutex
	sessionMu sync.Mutex
	events    chan int
}

func (c *Consumer) assign() {
	defer func() {
		c.otherMu.Unlock()
	}()
	c.otherMu.Lock()
	c.sessionMu.Lock()
}

func (c *Consumer) Rebalance() int {
	c.assign()
	defer c.sessionMu.Unlock()
	return <-c.events // want `receive from channel c.events while holding`
}
