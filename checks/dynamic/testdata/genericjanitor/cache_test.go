package genericjanitor

import (
	"sync"
	"testing"
	"time"
)

func fill(t *testing.T, c *Cache[string, int]) {
	var wg sync.WaitGroup
	for i, k := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Set(k, i, time.Hour)
		}()
	}
	wg.Wait()
	if n := c.Len(); n != 2 {
		t.Errorf("%d items, want 2", n)
	}
}

// TestJanitorLeft never stops its cache: the janitor is left running, a
// leak under plain go test too (which passes).
func TestJanitorLeft(t *testing.T) { fill(t, New[string, int]()) }

// TestJanitorStopped stops it: nothing to report.
func TestJanitorStopped(t *testing.T) {
	c := New[string, int]()
	defer c.Stop()
	fill(t, c)
}
