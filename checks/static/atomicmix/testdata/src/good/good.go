package good

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

type stats struct {
	hits  int64
	plain int64
	typed atomic.Int64
	ptr   atomic.Pointer[stats]
	mu    sync.Mutex
	once  sync.Once
}

func (s *stats) hit() { atomic.AddInt64(&s.hits, 1) }

func (s *stats) get() int64 { return atomic.LoadInt64(&s.hits) }

// Constructor: the value is not shared yet.
func newStats(n int64) *stats {
	s := &stats{hits: n} // ok
	s.hits = n           // ok
	s.hits++             // ok
	return s
}

func newStatsVar() stats {
	var s stats
	s.hits = 1 // ok
	return s
}

// Typed atomics cannot be accessed plainly.
func (s *stats) typedUse() int64 {
	s.typed.Add(1)
	s.ptr.Store(s)
	return s.typed.Load()
}

// A field never touched atomically may be read plainly under its lock.
func (s *stats) plainGet() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.plain // ok
}

// TryLock, sync.Once and Cond idioms around atomics stay silent.
func (s *stats) tryHit() {
	if s.mu.TryLock() {
		atomic.AddInt64(&s.hits, 1)
		s.mu.Unlock()
	}
	s.once.Do(func() { atomic.StoreInt64(&s.hits, 0) })
}

func (s *stats) waitFor(c *sync.Cond, n int64) {
	c.L.Lock()
	for atomic.LoadInt64(&s.hits) < n {
		c.Wait()
	}
	c.L.Unlock()
}

// Value receivers read their own copy.
func (s stats) snapshotCount(o stats) int64 { return o.plain + s.plain }

// unsafe operands are not accesses.
var offset = unsafe.Offsetof(stats{}.hits)

func size(s *stats) uintptr { return unsafe.Sizeof(s.hits) } // ok

var counter int64

func init() {
	counter = 10 // ok: init runs before any goroutine
}

func inc() int64 { return atomic.AddInt64(&counter, 1) }

// Confined to one goroutine: the fresh value is published only after the
// plain accesses.
func confined(out chan<- *stats) {
	s := &stats{}
	s.hits = 5 // ok
	atomic.AddInt64(&s.hits, 1)
	go func() { out <- s }()
}

// Select with default around atomic access.
func trySend(ch chan int64, s *stats) {
	select {
	case ch <- atomic.LoadInt64(&s.hits):
	default:
	}
}

// Closure run under the caller's lock, atomic inside.
func (s *stats) withLock(f func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	f()
}

func (s *stats) lockedHit() { s.withLock(func() { atomic.AddInt64(&s.hits, 1) }) }

// Every atomic write happens under mu, so a plain read under mu is ordered
// with them; lock-free readers use atomic loads.
type gauge struct {
	mu  sync.Mutex
	val int64
	max int64
}

func (g *gauge) set(v int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if v > g.max { // ok: all atomic writes of max hold g.mu
		atomic.StoreInt64(&g.max, v)
	}
	atomic.StoreInt64(&g.val, v)
}

func (g *gauge) peak() int64 { return atomic.LoadInt64(&g.max) }

func (g *gauge) current(o *gauge) int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.val // ok: same mutex field of the same type as in set
}

// Only atomic loads: plain reads do not race with them.
type table struct{ size int64 }

func (t *table) fast() int64 { return atomic.LoadInt64(&t.size) }
func (t *table) slow() int64 { return t.size } // ok: no atomic write anywhere

// Reading the total after wg.Wait: the writers have finished.
func total(n int) int64 {
	var s stats
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			atomic.AddInt64(&s.hits, 1)
		}()
	}
	wg.Wait()
	return s.hits // ok: ordered by wg.Wait
}

// A constructor helper method, run before the value is shared.
func (s *stats) initCounters(n int64) {
	s.hits = n // ok: init* helper
}

func newFromHelper(n int64) *stats {
	s := &stats{}
	s.initCounters(n)
	return s
}
