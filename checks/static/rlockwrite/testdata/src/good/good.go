// Package good holds idioms rlockwrite must stay silent on.
package good

import (
	"sync"
	"sync/atomic"
)

type Counter struct {
	mu sync.Mutex
	n  int
}

type Cache struct {
	mu      sync.RWMutex
	m       map[string]int
	hits    atomic.Int64
	misses  int64
	byKey   sync.Map
	counter *Counter
	cfg     Config
	statsMu sync.Mutex
	stats   int
}

type Config struct{ Name string }

func (c *Cache) Get(k string) int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.hits.Add(1)                 // ok: typed atomic
	atomic.AddInt64(&c.misses, 1) // ok: atomic function
	c.byKey.Store(k, 1)           // ok: sync.Map synchronizes itself
	return c.m[k]
}

func (c *Cache) Put(k string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v // ok: write lock
}

func (c *Cache) TryPut(k string, v int) {
	if c.mu.TryLock() {
		c.m[k] = v // ok: TryLock is the write lock
		c.mu.Unlock()
	}
}

func (c *Cache) Name() string {
	c.mu.RLock()
	cfg := c.cfg
	c.mu.RUnlock()
	cfg.Name = "copy" // ok: local copy
	return cfg.Name
}

func (c *Cache) CopyUnderRLock() Config {
	c.mu.RLock()
	defer c.mu.RUnlock()
	cfg := c.cfg
	cfg.Name += "!" // ok: local copy
	return cfg
}

func (c *Cache) Count() {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.counter.mu.Lock()
	c.counter.n++ // ok: the counter's own lock is held
	c.counter.mu.Unlock()
}

func (c *Cache) Stats() {
	c.mu.RLock()
	defer c.mu.RUnlock()
	c.statsMu.Lock()
	c.stats++ // ok: another mutex of the struct is held for writing
	c.statsMu.Unlock()
}

func (c *Cache) Reads(k string) (int, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.m[k] // ok: read
	n := len(c.m)
	return v + n, ok
}

func (c *Cache) Upgrade(k string) {
	c.mu.RLock()
	_, ok := c.m[k]
	c.mu.RUnlock()
	if !ok {
		c.mu.Lock()
		c.m[k] = 1 // ok: upgraded to the write lock
		c.mu.Unlock()
	}
}

func Fresh() *Cache {
	c := &Cache{m: map[string]int{}}
	c.mu.RLock()
	c.m["a"] = 1 // ok: value not shared yet
	c.mu.RUnlock()
	return c
}

func (c *Cache) Local() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	local := map[string]int{}
	local["x"] = c.m["x"] // ok: local map
	return local["x"]
}

// Rows uses an RWMutex as a close barrier, as database/sql.Rows does: it
// is read-locked during every operation and write-locked only to close.
// The fields it writes under the read lock are never accessed under the
// write lock, so closemu does not guard them.
type Rows struct {
	closemu sync.RWMutex
	closed  bool
	last    []string
}

func (r *Rows) Next() bool {
	r.closemu.RLock()
	defer r.closemu.RUnlock()
	r.last = []string{"x"} // ok: closemu is not this field's guard
	return !r.closed
}

func (r *Rows) Close() {
	r.closemu.Lock()
	r.closed = true
	r.closemu.Unlock()
}

// SkipList's find writes the shared prev array only when asked to; the
// readers ask it not to, the writers hold the write lock.
type SkipList struct {
	mu    sync.RWMutex
	nodes []int
	prev  [4]int
}

// Must hold the write lock if prev is true.
func (l *SkipList) find(key int, prev bool) int {
	for h := 3; h >= 0; h-- {
		if prev {
			l.prev[h] = key // ok: readers pass prev=false
		}
	}
	return l.nodes[0]
}

func (l *SkipList) Get(key int) int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return l.find(key, false)
}

func (l *SkipList) Put(key int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.find(key, true)
	l.prev[0] = 0
	l.nodes = append(l.nodes, key)
}

// Queue has one producer, serialized by its caller, that writes slots and
// its last size under the read lock; the write lock is only for growing.
type Queue struct {
	mu sync.RWMutex
	// Access to buffer requires at least RLock.
	buffer []int
	// lastSize is updated by push using only RLock (push is externally
	// synchronized), and by reset using Lock.
	lastSize int
	head     atomic.Int64
}

func (q *Queue) push(v, size int) {
	if len(q.buffer) == 0 {
		q.mu.Lock()
		q.buffer = make([]int, 8)
		q.mu.Unlock()
	}
	q.mu.RLock()
	q.buffer[int(q.head.Load())%len(q.buffer)] = v // ok: documented
	q.lastSize = size                              // ok: documented
	q.head.Add(1)
	q.mu.RUnlock()
}

func (q *Queue) reset() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.lastSize = 0
	q.buffer[0] = 0
}
