package bad

import (
	"sync"
	"sync/atomic"
)

type stats struct {
	hits  int64
	flags uint32
	mu    sync.Mutex
}

func (s *stats) hit() { atomic.AddInt64(&s.hits, 1) }

func (s *stats) load() int64 { return atomic.LoadInt64(&s.hits) }

func (s *stats) get() int64 {
	return s.hits // want `plain read of s\.hits races with its atomic accesses \(atomic\.AddInt64 at bad\.go:14\)`
}

func (s *stats) reset() {
	s.hits = 0 /* IL3002 */ // want `plain write of s\.hits races with its atomic accesses \(atomic\.LoadInt64 at bad\.go:16\) \(and 1 more plain write, listed as related\)`
}

func (s *stats) bump() {
	s.hits++ // one IL3002 defect with the write in reset: a related position of its finding
}

// A mutex held here does not help: hit does not take it.
func (s *stats) lockedRead() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits // want `plain read of s\.hits`
}

func (s *stats) setFlag() bool { return atomic.CompareAndSwapUint32(&s.flags, 0, 1) }

func (s *stats) flagSet() bool {
	return s.flags == 1 // want `plain read of s\.flags races with its atomic accesses \(atomic\.CompareAndSwapUint32`
}

var ready int32

func markReady() { atomic.StoreInt32(&ready, 1) }

func isReady() bool {
	return ready != 0 // want `plain read of ready races`
}

// A fresh value shared with a goroutine before the plain access.
func sharedEarly() int64 {
	s := &stats{}
	go s.hit()
	return s.hits // want `plain read of s\.hits`
}

// Inside a closure the fresh value may already be shared.
func closure() func() int64 {
	s := new(stats)
	return func() int64 {
		return s.hits // want `plain read of s\.hits`
	}
}

type gen[T any] struct {
	n   int64
	val T
}

func (g *gen[T]) inc() { atomic.AddInt64(&g.n, 1) }

func (g *gen[T]) count() int64 {
	return g.n // want `plain read of g\.n`
}

type gauge struct {
	mu  sync.Mutex
	val int64
}

func (g *gauge) get() int64 { return atomic.LoadInt64(&g.val) }

// The lock does not order the write with the lock-free atomic load.
func (g *gauge) set(v int64) {
	g.mu.Lock()
	g.val = v /* IL3002 */ // want `plain write of g\.val races with its atomic accesses \(atomic\.LoadInt64`
	g.mu.Unlock()
}

// Atomic writes under one mutex, plain read under another.
type twoLocks struct {
	a, b sync.Mutex
	n    int64
}

func (t *twoLocks) inc() {
	t.a.Lock()
	atomic.AddInt64(&t.n, 1)
	t.a.Unlock()
}

func (t *twoLocks) read() int64 {
	t.b.Lock()
	defer t.b.Unlock()
	return t.n // want `plain read of t\.n`
}

// A read before Wait still races with the goroutines.
func early(n int) int64 {
	s := &stats{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		atomic.AddInt64(&s.hits, 1)
	}()
	v := s.hits // want `plain read of s\.hits`
	wg.Wait()
	return v
}
