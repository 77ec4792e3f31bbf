// Package oktrylockwait: a caller that finds no token waits for the lock
// and checks again. Must not be reported.
package oktrylockwait

import (
	"sync"
	"sync/atomic"
	"testing"
)

type tokens struct {
	mu    sync.Mutex
	token atomic.Int64
	fetch func() int64
}

func (c *tokens) get() int64 {
	if v := c.token.Load(); v != 0 {
		return v
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if v := c.token.Load(); v != 0 {
		return v
	}
	v := c.fetch()
	c.token.Store(v)
	return v
}

func TestToken(t *testing.T) {
	c := &tokens{fetch: func() int64 { return 42 }}
	var wg sync.WaitGroup
	got := make([]int64, 2)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i] = c.get()
		}()
	}
	wg.Wait()
	for i, v := range got {
		if v != 42 {
			t.Errorf("caller %d got token %d, want 42", i, v)
		}
	}
}
