package longprefix

import (
	"sync"
	"testing"
)

func TestCountConcurrently(t *testing.T) {
	c := NewCounter()
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				c.Add(1)
			}
		}()
	}
	wg.Wait()
	if got := c.Total(); got != 20 {
		t.Fatalf("total %d after 20 adds", got)
	}
}
