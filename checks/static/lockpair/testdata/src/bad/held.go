package bad

import (
	"context"
	"errors"
	"sync"
)

type Cache struct {
	mu sync.Mutex
	m  map[string]string
}

var errNotFound = errors.New("not found")

func (c *Cache) Get(k string) (string, error) { // want Get:"acquires c.mu"
	c.mu.Lock()
	v, ok := c.m[k]
	if !ok {
		return "", errNotFound // want `c.mu locked at line 17 is still held at this return, but released before 1 other return\(s\)`
	}
	c.mu.Unlock()
	return v, nil
}

var global sync.Mutex

func switchForget(n int) int {
	global.Lock()
	switch n {
	case 0:
		global.Unlock()
		return 0
	case 1:
		global.Unlock()
		return 1
	}
	return n // want `global locked at line 29 is still held at this return, but released before 2 other return\(s\)`
}

type Embedded struct {
	sync.RWMutex
	n int
}

func (e *Embedded) Read(fail bool) int { // want Read:`acquires e.RWMutex \(read\)`
	e.RLock()
	if fail {
		return -1 // want `e.RWMutex locked at line 47 is still held at this return`
	}
	n := e.n
	e.RUnlock()
	return n
}

func (c *Cache) withTimeout(ctx context.Context, k string) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c.mu.Lock()
	if ctx.Err() != nil {
		return ctx.Err() // want `c.mu locked at line 59 is still held at this return`
	}
	c.m[k] = ""
	c.mu.Unlock()
	return nil
}

// many independent branches must not blow up the path walk
func (c *Cache) many(a, b, d, e, f, g, h, i, j, k bool) error {
	c.mu.Lock()
	n := 0
	if a {
		n++
	}
	if b {
		n++
	}
	if d {
		n++
	}
	if e {
		n++
	}
	if f {
		n++
	}
	if g {
		n++
	}
	if h {
		n++
	}
	if i {
		n++
	}
	if j {
		n++
	}
	if k {
		n++
	}
	if n > 5 {
		return errNotFound // want `c.mu locked at line 70 is still held at this return`
	}
	c.mu.Unlock()
	return nil
}

type Box[T any] struct {
	mu sync.Mutex
	v  T
}

func (b *Box[T]) Set(v T, ok bool) error { // want Set:"acquires b.mu"
	b.mu.Lock()
	if !ok {
		return errNotFound // want `b.mu locked at line 115 is still held at this return`
	}
	b.v = v
	b.mu.Unlock()
	return nil
}

func useBox(b *Box[int]) {
	b.mu.Lock()
	defer b.mu.Unlock()
	_ = b.Set(1, true) // want `call to b.Set locks b.mu, which is already held here`
}

type queue struct {
	mu    sync.Mutex
	items []int
	done  chan struct{}
}

func (q *queue) lock()   { q.mu.Lock() }
func (q *queue) unlock() { q.mu.Unlock() }

func (q *queue) push(x int) error {
	defer close(q.done)
	q.lock()
	q.items = append(q.items, x)
	if len(q.items) > 10 {
		return errNotFound // want `q.mu locked at line 141 is still held at this return`
	}
	q.unlock()
	return nil
}
