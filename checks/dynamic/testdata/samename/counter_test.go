package samename

import (
	"sync"
	"testing"
)

// TestCount (the package's) adds under the lock: it passes.
func TestCount(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add()
		}()
	}
	wg.Wait()
	if got := c.Value(); got != 2 {
		t.Errorf("count = %d, want 2", got)
	}
}
