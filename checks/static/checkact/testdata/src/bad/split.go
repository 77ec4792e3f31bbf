package bad

import "sync"

type counter struct {
	mu    sync.Mutex
	n     int
	m     map[string]int
	items []string
}

func slow(n int) int { return n * 2 }

func (c *counter) incSplit() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	w := slow(v)
	c.mu.Lock()
	c.n = w + 1 // want `c\.n is written from w, read under c\.mu in an earlier critical section at split\.go:16; an update made while c\.mu was released is lost`
	c.mu.Unlock()
}

func (c *counter) bumpKey(k string) {
	c.mu.Lock()
	v := c.m[k]
	c.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v + 1 // want `c\.m\[k\] is written from v, read under c\.mu`
}

func (c *counter) appendSplit(s string) {
	c.mu.Lock()
	old := c.items
	c.mu.Unlock()
	next := append(old, s)
	c.mu.Lock()
	c.items = next // want `c\.items is written from next`
	c.mu.Unlock()
}

type rw struct {
	mu  sync.RWMutex
	val int
}

func (r *rw) double() {
	r.mu.RLock()
	v := r.val
	r.mu.RUnlock()
	r.mu.Lock()
	r.val = v * 2 // want `r\.val is written from v, read under r\.mu`
	r.mu.Unlock()
}

// The write happens in another goroutine's critical section.
func (c *counter) async() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	go func() {
		c.mu.Lock()
		c.n = v + 1 // want `c\.n is written from v`
		c.mu.Unlock()
	}()
}

// The saved copy is modified before it is written back: a lost update.
func (c *counter) reserve(d int) {
	c.mu.Lock()
	total := c.n
	c.mu.Unlock()
	total += d
	c.mu.Lock()
	c.n = total // want `c\.n is written from total`
	c.mu.Unlock()
}

type ring struct {
	setMu  sync.Mutex
	mu     sync.RWMutex
	shards []string
}

// setShards releases setMu too before the write: two calls can interleave.
func (r *ring) setShards(add string) {
	r.setMu.Lock()
	r.mu.RLock()
	old := r.shards
	r.mu.RUnlock()
	r.setMu.Unlock()
	next := append(append([]string(nil), old...), add)
	r.setMu.Lock()
	r.mu.Lock()
	r.shards = next // want `r\.shards is written from next`
	r.mu.Unlock()
	r.setMu.Unlock()
}

// Clock advances under a semaphore, but Set writes now without it.
type Clock struct {
	mu  sync.Mutex
	now int
	sem chan struct{}
}

func NewClock() *Clock { return &Clock{sem: make(chan struct{}, 1)} }

func (c *Clock) Set(t int) {
	c.mu.Lock()
	c.now = t
	c.mu.Unlock()
}

func (c *Clock) Advance(d int) {
	c.sem <- struct{}{}
	defer func() { <-c.sem }()
	c.mu.Lock()
	end := c.now + d
	c.mu.Unlock()
	c.mu.Lock()
	c.now = end // want `c.now is written from end, read under c.mu in an earlier critical section`
	c.mu.Unlock()
}

// seekRelative: the read in the branch that returns carries the same
// local but reaches no write; the report names the read that does.
func (c *counter) seekRelative(d int, fast bool) int {
	off := d
	if fast {
		c.mu.Lock()
		off = c.n + d
		c.mu.Unlock()
		return off
	}
	c.mu.Lock()
	off = c.n + off
	c.mu.Unlock()
	off = slow(off)
	c.mu.Lock()
	c.n = off // want `c\.n is written from off, read under c\.mu in an earlier critical section at split\.go:138;`
	c.mu.Unlock()
	return off
}
