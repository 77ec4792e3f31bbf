package sharedprovider

import (
	"sync"
	"testing"
)

func TestAddConcurrently(t *testing.T) {
	c := NewClient()
	before := c.Total()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add(1)
		}()
	}
	wg.Wait()
	if got := c.Total() - before; got != 2 {
		t.Fatalf("the total grew by %d after two adds of 1, want 2", got)
	}
}
