package good

import (
	"maps"
	"slices"
	"sync"
)

type counter struct {
	mu    sync.Mutex
	n     int
	m     map[string]int
	items []string
}

func slow(n int) int { return n * 2 }

// Read and write in one critical section.
func (c *counter) inc() {
	c.mu.Lock()
	defer c.mu.Unlock()
	v := c.n
	c.n = slow(v) + 1 // ok
}

// The second section re-validates before writing.
func (c *counter) incRevalidate() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	w := slow(v)
	c.mu.Lock()
	if c.n == v {
		c.n = w // ok: re-read under the current lock
	}
	c.mu.Unlock()
}

// Double-checked: check, then lock and recheck.
func (c *counter) getOrCompute(k string) int {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v
	}
	v = slow(len(k))
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k]; ok {
		return old
	}
	c.m[k] = v // ok: rechecked under the lock
	return v
}

// The written value does not come from the earlier read.
func (c *counter) replace(k string) {
	c.mu.Lock()
	_, ok := c.m[k]
	c.mu.Unlock()
	if !ok {
		c.mu.Lock()
		c.m[k] = 1 // ok: not derived from the first section
		c.mu.Unlock()
	}
}

// An increment re-reads the field under the current lock.
func (c *counter) addSnapshot() {
	c.mu.Lock()
	d := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.n += d // ok
	c.mu.Unlock()
}

// Another field is written.
func (c *counter) copyOver() {
	c.mu.Lock()
	v := c.n
	c.mu.Unlock()
	c.mu.Lock()
	c.items = append(c.items, string(rune(v))) // ok: reads c.items here
	c.mu.Unlock()
}

// Loop: each iteration reads and writes in one section.
func (c *counter) loop() {
	for i := 0; i < 3; i++ {
		c.mu.Lock()
		v := c.n
		c.n = v + i // ok
		c.mu.Unlock()
	}
}

// A closure called inside the critical section is part of it.
func (c *counter) viaClosure() {
	c.mu.Lock()
	v := c.n
	func() {
		c.n = v + 1 // ok: same critical section
	}()
	c.mu.Unlock()
}

// Rollback: the value saved in one section is put back unchanged in
// another; nothing computed from a stale read is published.
func (c *counter) tryStep(step func() error) error {
	c.mu.Lock()
	saved := c.n
	c.n++
	c.mu.Unlock()
	if err := step(); err != nil {
		c.mu.Lock()
		c.n = saved // ok: restores the saved value
		c.mu.Unlock()
		return err
	}
	return nil
}

type conn struct {
	mu     sync.Mutex
	closed bool
	addr   string
}

func (c *conn) isClosed() bool { return c.closed }

// The second section re-checks the owner's state through a method and
// leaves if it changed, before writing the value computed outside.
func (c *conn) upgrade(resolve func(string) string) {
	c.mu.Lock()
	addr := c.addr
	c.mu.Unlock()
	resolved := resolve(addr)
	c.mu.Lock()
	if c.isClosed() {
		c.mu.Unlock()
		return
	}
	c.addr = resolved // ok: re-validated by c.isClosed()
	c.mu.Unlock()
}

type ring struct {
	setMu  sync.Mutex // serializes setShards
	mu     sync.RWMutex
	shards []string
}

// setShards drops mu while it builds the new shards, but setMu is held
// from the read to the write: no other setShards can run in between.
func (r *ring) setShards(add string) {
	r.setMu.Lock()
	defer r.setMu.Unlock()
	r.mu.RLock()
	old := r.shards
	r.mu.RUnlock()
	next := append(append([]string(nil), old...), add)
	r.mu.Lock()
	r.shards = next // ok: setMu held across both sections
	r.mu.Unlock()
}

type msg struct {
	next    *msg
	barrier func()
}

type sub struct {
	mu    sync.Mutex
	pHead *msg
}

// drain pops the list under s.mu and drops the lock only around a
// barrier's callback: on the other path the read and the write are in
// one critical section (nats.go's waitForMsgs).
func (s *sub) drain() {
	s.mu.Lock()
	for m := s.pHead; m != nil; m = s.pHead {
		if m.barrier != nil {
			s.mu.Unlock()
			m.barrier()
			s.mu.Lock()
		}
		s.pHead = m.next // ok: not a split on every path
	}
	s.mu.Unlock()
}

// Clock advances under a one-slot semaphore held for the whole call, and
// nothing else writes now: no update can come between its sections.
type Clock struct {
	mu   sync.Mutex
	now  int
	sem  chan struct{}
	fire []int
}

func NewClock() *Clock { return &Clock{sem: make(chan struct{}, 1)} }

func (c *Clock) Now() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *Clock) Advance(d int) {
	c.sem <- struct{}{}
	defer func() { <-c.sem }()
	c.mu.Lock()
	end := c.now + d
	c.mu.Unlock()
	for range c.fire {
	}
	c.mu.Lock()
	c.now = end // ok: Advance is the only writer and runs one at a time
	c.mu.Unlock()
}

// A snapshot that puts back shallow copies taken under the lock (a test
// environment's registry rollback): the copies are restored unchanged.
func (c *counter) snapshot() func() {
	c.mu.Lock()
	defer c.mu.Unlock()
	m := maps.Clone(c.m)
	items := slices.Clone(c.items)
	old := append([]string(nil), c.items...)
	return func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.m = m         // ok: restores the saved copy
		c.items = items // ok
		c.items = old   // ok
	}
}
