package good

import (
	"sync"
	"sync/atomic"
)

type server struct {
	mu      sync.Mutex
	started atomic.Bool
	count   atomic.Int64
	level   atomic.Int32
	hits    int64
	once    sync.Once
	cond    *sync.Cond
	ready   bool
}

// CompareAndSwap is the fix.
func (s *server) start() {
	if s.started.CompareAndSwap(false, true) {
		go func() {}()
	}
}

// Add is the fix.
func (s *server) inc() { s.count.Add(1) }

// A CAS loop loads and swaps without a plain Store.
func (s *server) double() {
	for {
		old := s.count.Load()
		if s.count.CompareAndSwap(old, old*2) {
			return
		}
	}
}

// Store if changed loses nothing.
func (s *server) setLevel(l int32) {
	if s.level.Load() != l {
		s.level.Store(l) // ok
	}
}

// Independent store.
func (s *server) reset() int64 {
	old := s.count.Load()
	s.count.Store(0) // ok: does not depend on old
	return old
}

// Under a mutex held at both.
func (s *server) lockedInc() {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := atomic.LoadInt64(&s.hits)
	atomic.StoreInt64(&s.hits, v+1) // ok
}

// TryLock guard.
func (s *server) tryInc() {
	if s.mu.TryLock() {
		s.count.Store(s.count.Load() + 1) // ok: under s.mu
		s.mu.Unlock()
	}
}

func (s *server) tryIncEarly() {
	if !s.mu.TryLock() {
		return
	}
	defer s.mu.Unlock()
	s.count.Store(s.count.Load() + 1) // ok: under s.mu
}

// Closures run under the caller's lock.
func (s *server) withLock(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

func (s *server) closureInc() {
	s.mu.Lock()
	func() {
		s.count.Store(s.count.Load() + 1) // ok: called under s.mu
	}()
	s.mu.Unlock()
}

// Functions named *Locked run with the caller's lock.
func (s *server) incLocked() {
	s.count.Store(s.count.Load() + 1) // ok
}

// sync.Once instead of a flag.
func (s *server) init() {
	s.once.Do(func() { s.started.Store(true) })
}

// Cond wait loop in one critical section.
func (s *server) waitReady() {
	s.mu.Lock()
	for !s.ready {
		s.cond.Wait()
	}
	s.ready = false
	s.mu.Unlock()
}

// select with default around a load.
func (s *server) publish(ch chan int64) {
	select {
	case ch <- s.count.Load():
	default:
	}
}

// Values confined to one goroutine: locals, not shared state.
func confined() int64 {
	var c atomic.Int64
	c.Store(c.Load() + 1) // ok: c never escapes
	return c.Load()
}

// Double-checked with an atomic: load, lock, load again, store.
type lazy struct {
	mu   sync.Mutex
	done atomic.Value
	m    sync.Map
}

func (l *lazy) get() chan struct{} {
	d := l.done.Load()
	if d != nil {
		return d.(chan struct{})
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	d = l.done.Load()
	if d == nil {
		d = make(chan struct{})
		l.done.Store(d) // ok: re-checked under l.mu
	}
	return d.(chan struct{})
}

func (l *lazy) entry(k string) any {
	if v, ok := l.m.Load(k); ok {
		return v
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	v, ok := l.m.Load(k)
	if !ok {
		v = k
		l.m.Store(k, v) // ok: re-checked under l.mu
	}
	return v
}

// A sanity check that exits early does not make an unrelated reset a
// check-then-act.
func (s *server) drain(state int64) {
	if s.count.Load() != state {
		panic("misuse")
	}
	s.count.Store(0) // ok: the stored value does not come from the load
}

// A bounds test before an unrelated reset.
func (s *server) victim(pid int64) {
	size := s.count.Load()
	if pid >= size {
		return
	}
	s.count.Store(0) // ok
}
