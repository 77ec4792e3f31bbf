package q

import (
	"sync"
	"testing"
)

func TestCount(t *testing.T) {
	Register("count") // the second run in one process panics here
	var c Counter
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.Add()
		}()
	}
	wg.Wait()
	if n := c.N(); n != 2 {
		t.Fatalf("count %d, want 2", n)
	}
}
