package allocs

import (
	"sync"
	"sync/atomic"
	"testing"
)

type cache struct {
	mu    sync.Mutex
	items map[string]int
	hits  atomic.Int64
}

func (c *cache) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.hits.Add(1)
	return c.items[k]
}

func (c *cache) set(k string, v int) {
	c.mu.Lock()
	c.items[k] = v
	c.mu.Unlock()
}

// Locking allocates nothing: a test counting allocations sees 0 under the
// scheduler as under go test.
func TestAllocsPerRun(t *testing.T) {
	c := &cache{items: map[string]int{}}
	c.set("a", 1)
	if n := testing.AllocsPerRun(100, func() { c.get("a") }); n != 0 {
		t.Fatalf("%v allocations per get", n)
	}
}
