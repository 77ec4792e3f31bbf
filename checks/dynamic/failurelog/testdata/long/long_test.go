package long

import (
	"sync"
	"testing"
)

func TestCountLong(t *testing.T) {
	var c Counter
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1500; i++ {
				c.Inc()
			}
			c.Bump()
		}()
	}
	wg.Wait()
	if got := c.Value(); got != 3002 {
		t.Errorf("count = %d, want 3002", got)
	}
}
