// Package syncs holds data races and misuse of WaitGroup and initialization.
package syncs

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestUnsyncCounter(t *testing.T) {
	hits := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hits++ // data race
		}()
	}
	wg.Wait()
	_ = hits
}

// config is loaded lazily with double-checked locking; the first check reads
// cfg without the lock.
type loader struct {
	mu  sync.Mutex
	cfg *map[string]string
}

func (l *loader) get() map[string]string {
	if l.cfg == nil { // unsynchronized read
		l.mu.Lock()
		if l.cfg == nil {
			m := map[string]string{"mode": "fast"}
			l.cfg = &m
		}
		l.mu.Unlock()
	}
	return *l.cfg
}

func TestDoubleCheckedInit(t *testing.T) {
	l := &loader{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); l.get() }()
	go func() { defer wg.Done(); l.get() }()
	wg.Wait()
}

// server starts its loop before it makes the map the loop writes to.
type server struct {
	mu    sync.Mutex
	conns map[int]bool
	ready chan bool
}

func newServer() *server {
	s := &server{ready: make(chan bool)}
	go s.loop()
	s.mu.Lock()
	s.conns = make(map[int]bool) // too late if loop already ran
	s.mu.Unlock()
	return s
}

func (s *server) loop() {
	s.mu.Lock()
	s.conns[1] = true // assignment to entry in nil map
	s.mu.Unlock()
	s.ready <- true
}

func TestNilMapInitOrder(t *testing.T) {
	s := newServer()
	<-s.ready
}

// fanOut calls Add inside the goroutines it counts, so Wait can return
// before they have started.
func TestWaitGroupAddInside(t *testing.T) {
	var wg sync.WaitGroup
	var done atomic.Int32
	for range 2 {
		go func() {
			wg.Add(1) // should be before the go statement
			defer wg.Done()
			done.Add(1)
		}()
	}
	wg.Wait()
	if n := done.Load(); n != 2 {
		t.Errorf("Wait returned with %d of 2 workers done", n)
	}
}

// worker calls Done twice when it notices cancellation late.
func TestNegativeWaitGroup(t *testing.T) {
	var wg sync.WaitGroup
	var cancelled atomic.Bool
	wg.Add(1)
	go func() {
		defer wg.Done()
		if cancelled.Load() {
			wg.Done() // second Done: negative counter
		}
	}()
	go cancelled.Store(true)
	wg.Wait()
}

// registry writes a plain map from two goroutines.
func TestMapWrites(t *testing.T) {
	m := map[string]int{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); m["a"] = 1 }()
	go func() { defer wg.Done(); m["b"] = 2 }()
	wg.Wait()
}

// once runs initialization through sync.Once, but the flag readers check is
// written outside it.
type service struct {
	once    sync.Once
	started bool
}

func (s *service) start() {
	s.once.Do(func() {})
	s.started = true // racy write, outside the Once
}

func TestWriteOutsideOnce(t *testing.T) {
	s := &service{}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); s.start() }()
	go func() { defer wg.Done(); s.start() }()
	wg.Wait()
}

// TestAtomicLoadThenStore: each increment is an atomic load and an atomic
// store, not one atomic add; an increment between the two is lost.
func TestAtomicLoadThenStore(t *testing.T) {
	var n atomic.Int32
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Store(n.Load() + 1) // should be n.Add(1)
		}()
	}
	wg.Wait()
	if got := n.Load(); got != 2 {
		t.Errorf("n = %d, want 2", got)
	}
}
