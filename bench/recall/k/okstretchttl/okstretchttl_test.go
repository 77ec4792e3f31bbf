// Package okstretchttl: a cache whose entries live 100 ms by time.Now,
// filled by one goroutine with 20,000 adds, each under the cache's
// lock. Every fiftieth add refreshes key "hot", so when the loop ends the
// entry is a few microseconds old on any machine: the test's check that
// it is still fresh holds. No goroutine runs beside the loop.
package okstretchttl

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

type entry struct {
	value   int
	expires time.Time
}

type cache struct {
	mu      sync.Mutex
	ttl     time.Duration
	entries map[string]entry
}

func (c *cache) add(key string, v int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries[key] = entry{v, time.Now().Add(c.ttl)}
}

func (c *cache) get(key string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok || time.Now().After(e.expires) {
		return 0, false
	}
	return e.value, true
}

func TestHotKeyFresh(t *testing.T) {
	c := &cache{ttl: 100 * time.Millisecond, entries: map[string]entry{}}
	for i := 0; i < 20000; i++ {
		key := strconv.Itoa(i % 1000)
		if i%50 == 0 {
			key = "hot"
		}
		c.add(key, i)
	}
	if _, ok := c.get("hot"); !ok {
		t.Fatal("the hot key, refreshed fifty adds ago, has expired")
	}
}
