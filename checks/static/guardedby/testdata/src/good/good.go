// Package good holds idioms guardedby must stay silent on.
package good

import (
	"sync"
	"sync/atomic"
)

type Stats struct {
	mu     sync.Mutex
	hits   int
	misses int
	total  atomic.Int64 // typed atomic: synchronizes itself
	once   sync.Once
	ready  bool
	cond   *sync.Cond
	queue  []int
	id     string
}

// NewStats touches fields before the value is shared.
func NewStats(id string) *Stats {
	s := &Stats{id: id}
	s.hits = 0
	s.misses = 0
	s.cond = sync.NewCond(&s.mu)
	return s
}

func (s *Stats) Hit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.hits++
	s.total.Add(1)
}

func (s *Stats) Miss() {
	s.mu.Lock()
	s.misses++
	s.mu.Unlock()
	s.total.Add(1) // ok: typed atomic
}

func (s *Stats) TryHit() bool {
	if !s.mu.TryLock() {
		return false
	}
	s.hits++ // ok: TryLock succeeded
	s.mu.Unlock()
	return true
}

func (s *Stats) Snapshot() (int, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits, s.misses
}

// withLock runs f under the lock; the closure accesses are protected.
func (s *Stats) Reset() {
	s.mu.Lock()
	func() {
		s.hits = 0 // ok: inlined closure under the caller's lock
		s.misses = 0
	}()
	s.mu.Unlock()
}

func (s *Stats) ResetDeferred() {
	s.mu.Lock()
	defer func() {
		s.hits = 0 // ok: runs before the deferred unlock below it
		s.mu.Unlock()
	}()
	s.misses = 0
}

func (s *Stats) Init() {
	s.once.Do(func() {
		s.ready = true
	})
}

// Wait waits in the classic Cond loop.
func (s *Stats) Wait() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.queue) == 0 {
		s.cond.Wait()
	}
	v := s.queue[0]
	s.queue = s.queue[1:]
	return v
}

func (s *Stats) Put(v int) {
	s.mu.Lock()
	s.queue = append(s.queue, v)
	s.mu.Unlock()
	s.cond.Signal()
}

// ID is only written in the constructor.
func (s *Stats) ID() string { return s.id }

// Local builds a value that never leaves this goroutine.
func Local() int {
	var s Stats
	s.hits = 3 // ok: local value
	s.misses++ // ok
	t := NewStats("x")
	t.hits++ // ok: fresh from the constructor
	return s.hits + t.hits
}

// Copy reads a copy made under the lock.
func (s Stats) Copy() int { return s.hits } // ok: value receiver

type plain struct {
	n int // ok: the struct has no mutex
}

func (p *plain) inc() { p.n++ }

type Other struct {
	mu sync.Mutex
	v  int
}

var global sync.Mutex

func (o *Other) Set(x int) {
	o.mu.Lock()
	o.v = x
	o.mu.Unlock()
}

func (o *Other) Get() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.v
}

func (o *Other) UnderGlobal() {
	global.Lock()
	o.v++ // ok: another lock is held; it may be the real guard
	global.Unlock()
}

func (o *Other) Callback(run func(func())) {
	run(func() {
		o.v = 1 // ok: the caller of the callback is unknown
	})
}

func (o *Other) lock()   { o.mu.Lock() }
func (o *Other) unlock() { o.mu.Unlock() }

func (o *Other) ViaHelpers() {
	o.lock()
	o.v++ // ok: lock helper
	o.unlock()
}

// Server is set up by a helper that only constructors call.
type Server struct {
	mu    sync.Mutex
	conns map[string]int
}

func NewServer() *Server {
	s := &Server{}
	s.init()
	return s
}

func (s *Server) init() {
	s.conns = map[string]int{} // ok: every caller passes a value being built
	s.reset()
}

func (s *Server) reset() {
	s.conns["boot"] = 0 // ok: reached only from the constructor
}

func (s *Server) Add(k string) {
	s.mu.Lock()
	s.conns[k]++
	s.mu.Unlock()
}

func (s *Server) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}

func (s *Server) Del(k string) {
	s.mu.Lock()
	delete(s.conns, k)
	s.mu.Unlock()
}
