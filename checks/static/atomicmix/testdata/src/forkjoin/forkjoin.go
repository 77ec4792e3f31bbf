// Package forkjoin: workers started and joined inside the starter's
// critical section make their atomic accesses under its lock, so a plain
// write under that lock elsewhere is ordered with them. Workers joined
// after the unlock, a goroutine that only signals it started, and a
// starter that works between the start and the join keep the report.
package forkjoin

import (
	"sync"
	"sync/atomic"
)

type row struct{ id int64 }

type table struct {
	mu     sync.Mutex
	nextID int64
	rows   []*row
}

// Renumber hands out new ids from parallel workers while it holds t.mu;
// it waits for them before it unlocks.
func (t *table) Renumber() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nextID = 0 // ok: every atomic access of nextID runs under t.mu
	var wg sync.WaitGroup
	for _, r := range t.rows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.id = atomic.AddInt64(&t.nextID, 1)
		}()
	}
	wg.Wait()
}

// Insert numbers one row under the lock.
func (t *table) Insert(r *row) {
	t.mu.Lock()
	t.nextID++ // ok
	r.id = t.nextID
	t.rows = append(t.rows, r)
	t.mu.Unlock()
}

// One worker, joined by a receive of its result.
type sizer struct {
	mu    sync.Mutex
	total int64
}

func (s *sizer) Measure(parts [][]byte) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.total = 0 // ok
	done := make(chan int64)
	go func() {
		var n int64
		for _, p := range parts {
			n = atomic.AddInt64(&s.total, int64(len(p)))
		}
		done <- n
	}()
	return <-done
}

// The workers are joined after the unlock: they run beside Reset.
type counter struct {
	mu sync.Mutex
	n  int64
}

func (c *counter) Spread(k int) {
	var wg sync.WaitGroup
	c.mu.Lock()
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if atomic.AddInt64(&c.n, 1) > 100 {
				return
			}
		}()
	}
	c.mu.Unlock()
	wg.Wait()
}

func (c *counter) Reset() {
	c.mu.Lock()
	c.n = 0 /* IL3002 */ // want `plain write of c\.n races with its atomic accesses`
	c.mu.Unlock()
}

// The goroutine signals that it started and goes on counting.
type ticker struct {
	mu    sync.Mutex
	ticks int64
}

func (t *ticker) Start() {
	t.mu.Lock()
	defer t.mu.Unlock()
	ready := make(chan struct{})
	go func() {
		ready <- struct{}{}
		for atomic.AddInt64(&t.ticks, 1) < 1000 {
		}
	}()
	<-ready
}

func (t *ticker) Reset() {
	t.mu.Lock()
	t.ticks = 0 /* IL3002 */ // want `plain write of t\.ticks races with its atomic accesses`
	t.mu.Unlock()
}

// The starter writes between the start and the join: the worker runs
// beside that write.
type gauge struct {
	mu sync.Mutex
	v  int64
}

func (g *gauge) Sample() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	done := make(chan int64)
	go func() {
		done <- atomic.AddInt64(&g.v, 1)
	}()
	g.v = 0 /* IL3002 */ // want `plain write of g\.v races with its atomic accesses`
	return <-done
}
