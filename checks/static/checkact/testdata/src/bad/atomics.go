package bad

import "sync/atomic"

type server struct {
	started atomic.Bool
	count   atomic.Int64
	hits    int64
	ptr     atomic.Pointer[server]
}

func (s *server) start() {
	if !s.started.Load() {
		s.started.Store(true) // want `atomic store to s\.started depends on its atomic load at atomics\.go:13, and an update made in between is lost \(use CompareAndSwap or Add\)`
		go func() {}()
	}
}

func (s *server) inc() {
	s.count.Store(s.count.Load() + 1) // want `atomic store to s\.count depends on its atomic load`
}

func (s *server) hit() {
	v := atomic.LoadInt64(&s.hits)
	atomic.StoreInt64(&s.hits, v+1) // want `atomic store to s\.hits depends on its atomic load at atomics\.go:24`
}

func (s *server) resetIfZero() {
	if s.count.Load() == 0 {
		s.count.Store(1) // want `atomic store to s\.count`
	}
}

func (s *server) lazy() *server {
	if p := s.ptr.Load(); p != nil {
		return p
	}
	n := &server{}
	s.ptr.Store(n) // want `atomic store to s\.ptr`
	return n
}

var gen uint32

func next() uint32 {
	old := atomic.LoadUint32(&gen)
	n := old + 1
	atomic.StoreUint32(&gen, n) // want `atomic store to gen`
	return n
}

type closer struct{ closed atomic.Bool }

func (c *closer) close(ch chan int) {
	if c.closed.Load() {
		return
	}
	c.closed.Store(true) // want `atomic store to c\.closed`
	close(ch)
}
