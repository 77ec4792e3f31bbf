package bad

import "sync"

// Checkpoints sets its flag on the read-locked path too.
type Checkpoints struct {
	mu    sync.RWMutex
	cache map[int][]int
}

func (c *Checkpoints) Set(k int, v []int) {
	c.mu.Lock()
	c.cache[k] = v
	c.mu.Unlock()
}

func (c *Checkpoints) Get(k, n int) []int {
	c.mu.RLock()
	cur := c.cache[k]
	var grow bool
	if n > len(cur) {
		c.mu.RUnlock()
		c.mu.Lock()
		defer c.mu.Unlock()
		grow = true
	} else {
		defer c.mu.RUnlock()
		grow = n < 0
	}
	if grow {
		c.cache[k] = cur // want `map c.cache modified while holding only the read lock c.mu`
	}
	return cur
}
