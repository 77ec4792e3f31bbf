package good

import "sync"

// Checkpoints grows a cache under the write lock and serves it under the
// read lock; the write at the end runs only when grow was set, which
// happens only after upgrading to the write lock (btcd's cfCheckptCaches).
type Checkpoints struct {
	mu    sync.RWMutex
	cache map[int][]int
}

func (c *Checkpoints) Get(k, n int) []int {
	c.mu.RLock()
	cur := c.cache[k]
	var grow bool
	if n > len(cur) {
		c.mu.RUnlock()
		c.mu.Lock()
		defer c.mu.Unlock()
		cur = c.cache[k]
		if n > len(cur) {
			grow = true
			cur = append(cur, make([]int, n-len(cur))...)
		}
	} else {
		defer c.mu.RUnlock()
	}
	if grow {
		c.cache[k] = cur // ok: grow is true only under the write lock
	}
	return cur
}
