package correct

import (
	"strconv"
	"sync"
	"testing"
	"time"
)

// ttlCache stamps its entries with time.Now and a time to live.
type ttlCache struct {
	mu      sync.Mutex
	ttl     time.Duration
	expires map[string]time.Time
}

func (c *ttlCache) add(key string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.expires[key] = time.Now().Add(c.ttl)
}

func (c *ttlCache) fresh(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.expires[key]
	return ok && !time.Now().After(e)
}

// TestTTLHotKey: one goroutine makes 20,000 locked adds; the hot key,
// refreshed every fiftieth, is microseconds old at the check on any
// machine. The runtime stretches a long run of clock reads (rt's
// stretch.go), which expires it on that schedule only: not the code's.
func TestTTLHotKey(t *testing.T) {
	c := &ttlCache{ttl: 100 * time.Millisecond, expires: map[string]time.Time{}}
	for i := 0; i < 20000; i++ {
		key := strconv.Itoa(i % 1000)
		if i%50 == 0 {
			key = "hot"
		}
		c.add(key)
	}
	if !c.fresh("hot") {
		t.Fatal("the hot key, refreshed fifty adds ago, has expired")
	}
}
