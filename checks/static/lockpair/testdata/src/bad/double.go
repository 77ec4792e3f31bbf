package bad

import "sync"

type Counter struct {
	mu sync.Mutex
	n  int
}

func (c *Counter) incTwice() {
	c.mu.Lock()
	c.n++
	c.mu.Lock() // want `c.mu locked while already locked \(Lock at line 11\): Go mutexes are not re-entrant, so this deadlocks`
	c.n++
	c.mu.Unlock()
}

func (c *Counter) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n = 0
}

func (c *Counter) Add(k int) { // want Add:"acquires c.mu"
	c.mu.Lock()
	defer c.mu.Unlock()
	if k < 0 {
		c.reset() // want `call to c.reset locks c.mu, which is already held here \(locked at line 25\)`
		return
	}
	c.n += k
}

type Table struct {
	mu sync.RWMutex
	m  map[string]int
}

func (t *Table) upgrade(k string) {
	t.mu.RLock()
	if _, ok := t.m[k]; !ok {
		t.mu.Lock() // want `t.mu locked while already read-locked \(RLock at line 40\)`
		t.m[k] = 1
		t.mu.Unlock()
	}
	t.mu.RUnlock()
}

func loopSkipsUnlock(mu *sync.Mutex, xs []int) {
	for _, x := range xs {
		mu.Lock() // want `mu locked while already locked \(Lock at line 51\)`
		if x < 0 {
			continue
		}
		mu.Unlock()
	}
}

func (c *Counter) viaClosure() {
	c.mu.Lock()
	defer c.mu.Unlock()
	f := func() {
		c.mu.Lock()
		c.n++
		c.mu.Unlock()
	}
	f() // want `call to f locks c.mu, which is already held here \(locked at line 60\)`
}

// backoff: two calls under one lock that both lock it again are one
// defect: one finding at the first, the second related.
type backoff struct {
	lock  sync.Mutex
	timer *int
	n     int
}

func (b *backoff) step() int {
	b.lock.Lock()
	defer b.lock.Unlock()
	b.n++
	return b.n
}

func (b *backoff) Next() *int {
	b.lock.Lock()
	defer b.lock.Unlock()
	if b.timer == nil {
		d := b.step() // want `call to b.step locks b.lock, which is already held here \(locked at line 86\): Go mutexes are not re-entrant, so this deadlocks \(and at 1 more place, listed as related\)`
		b.timer = &d
	} else {
		*b.timer = b.step()
	}
	return b.timer
}

// bumpMutex's method takes and releases the lock itself: a goroutine
// calling it does not release the caller's lock, so it is no signal.
type bumpMutex struct {
	sync.Mutex
	n int
}

func (m *bumpMutex) bump() {
	m.Lock()
	m.n++
	m.Unlock()
}

func relockBesideWorker() {
	m := new(bumpMutex)
	m.Lock()
	go func() { m.bump() }()
	m.Lock() // want `m.Mutex locked while already locked \(Lock at line 112\)`
	m.Unlock()
}
