// Package ttlexpiry: a cache whose items expire by the clock. An item
// given a nanosecond to live has expired when it is next read, under go
// test as on any machine (time goes on between two reads of the clock);
// the search must say nothing of the tests that count on it, and still
// find the cache's check-then-act, which its replay must reproduce.
package ttlexpiry

import (
	"slices"
	"strconv"
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

// fresh: is k's item there and not expired?
func (c *cache) fresh(k string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	it, ok := c.items[k]
	return ok && !it.expired()
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

// TestHotKeyFresh: a goroutine makes 8,000 sets with a 100 ms time to
// live while the test makes 3,000 and then checks the hot key, which the
// goroutine sets every fiftieth: it is microseconds old on any machine. The runtime stretches a long run of
// clock reads (rt's stretch.go, for loops that work until a time has
// passed), which takes the clock minutes ahead of the work: on the
// schedules where the check comes late, the hot key has expired. The same
// decisions with the clock not stretched pass, so it is no finding.
func TestHotKeyFresh(t *testing.T) {
	c := newCache()
	c.set("hot", 0, 100*time.Millisecond)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i < 8000; i++ {
			k := strconv.Itoa(i % 1000)
			if i%50 == 0 {
				k = "hot"
			}
			c.set(k, i, 100*time.Millisecond)
		}
	}()
	for i := 0; i < 3000; i++ {
		c.set("m"+strconv.Itoa(i%100), i, 100*time.Millisecond)
	}
	if !c.fresh("hot") {
		t.Error("the hot key, set at most fifty sets ago, has expired")
	}
	<-done
}

// TestStampsThenLoadTwice: TestLoadOnce's check-then-act after two
// goroutines' long runs of sets (both, then the loads), so that it fails
// on a stretched clock; the same decisions with the clock not stretched
// fail too: a finding.
func TestStampsThenLoadTwice(t *testing.T) {
	c := newCache()
	var wg, stamped sync.WaitGroup
	stamped.Add(2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 3000; i++ {
				c.set(strconv.Itoa(i), i, time.Hour)
			}
			stamped.Done()
			stamped.Wait()
			c.getOrLoad("k")
		}()
	}
	wg.Wait()
	if c.loads != 1 {
		t.Errorf("loaded %d times, want once", c.loads)
	}
}

var sink int

// TestFirstKeyExpires fails under go test on every run: the test's loop
// after the first set does tens of milliseconds of work, and the first
// key lives 2 ms. Its stretched clock runs ahead of real time too, and the
// same decisions with the clock not stretched pass (a read moves it by
// 20 ns), but plain go test fails the same way: a finding.
func TestFirstKeyExpires(t *testing.T) {
	c := newCache()
	c.set("first", 0, 2*time.Millisecond)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 3000; i++ {
			c.set("g"+strconv.Itoa(i%100), i, time.Hour)
		}
	}()
	sum := 0
	for i := 0; i < 5000; i++ {
		for j := 0; j < 5000; j++ {
			sum += j*i ^ sum
		}
		c.set(strconv.Itoa(i%100), i, time.Hour)
	}
	sink = sum
	<-done
	if !c.fresh("first") {
		t.Error("the first key, set with 2 ms to live, has expired")
	}
}
