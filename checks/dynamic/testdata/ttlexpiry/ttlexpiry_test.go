// Package ttlexpiry: a cache whose items expire by the clock. An item
// given a nanosecond to live has expired when it is next read, under go
// test as on any machine (time goes on between two reads of the clock);
// the search must say nothing of the tests that count on it, and still
// find the cache's check-then-act, which its replay must reproduce.
package ttlexpiry

import (
	"slices"
	"sync"
	"testing"
	"time"
)

type item struct {
	value     int
	expiresAt time.Time
}

func (it *item) expired() bool { return it.expiresAt.Before(time.Now()) }

type cache struct {
	mu    sync.Mutex
	items map[string]*item
	loads int
}

func newCache() *cache { return &cache{items: map[string]*item{}} }

func (c *cache) set(k string, v int, ttl time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.items[k] = &item{value: v, expiresAt: time.Now().Add(ttl)}
}

// keys are the keys of the items that have not expired.
func (c *cache) keys() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var ks []string
	for k, it := range c.items {
		if !it.expired() {
			ks = append(ks, k)
		}
	}
	slices.Sort(ks)
	return ks
}

// getOrLoad checks and loads in two critical sections: two callers may
// both find the item missing and both load it.
func (c *cache) getOrLoad(k string) int {
	c.mu.Lock()
	if it, ok := c.items[k]; ok && !it.expired() {
		c.mu.Unlock()
		return it.value
	}
	c.mu.Unlock()
	c.mu.Lock()
	c.loads++
	v := c.loads
	c.mu.Unlock()
	c.set(k, v, time.Hour)
	return v
}

// TestExpiredAtOnce: an item with a nanosecond to live is gone when the
// cache is next read, whichever item the range reads first.
func TestExpiredAtOnce(t *testing.T) {
	c := newCache()
	var wg sync.WaitGroup
	for _, k := range []string{"a", "b", "c"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.set(k, 1, time.Hour)
		}()
	}
	wg.Wait()
	c.set("d", 1, time.Nanosecond)
	if got := c.keys(); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Errorf("keys %v, want [a b c]: d had a nanosecond to live", got)
	}
}

// TestItemExpired: a stamp read after another is later by more than a
// nanosecond.
func TestItemExpired(t *testing.T) {
	done := make(chan *item)
	go func() { done <- &item{expiresAt: time.Now().Add(time.Nanosecond)} }()
	if it := <-done; !it.expired() {
		t.Error("an item with a nanosecond to live has not expired")
	}
}

// TestLoadOnce is the true finding: two callers load the same key twice.
func TestLoadOnce(t *testing.T) {
	c := newCache()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.getOrLoad("k")
		}()
	}
	wg.Wait()
	if c.loads != 1 {
		t.Errorf("loaded %d times, want once", c.loads)
	}
}
