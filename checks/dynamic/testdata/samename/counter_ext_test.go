package samename_test

import (
	"sync"
	"testing"

	"samename"
)

// TestCount (the external package's) adds in two steps: in some
// orders an update is lost.
func TestCount(t *testing.T) {
	var c samename.Counter
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.AddSplit()
		}()
	}
	wg.Wait()
	if got := c.Value(); got != 2 {
		t.Errorf("count = %d, want 2", got)
	}
}

// TestOnlyHere is the external package's alone.
func TestOnlyHere(t *testing.T) {
	var c samename.Counter
	c.Add()
	if c.Value() != 1 {
		t.Error("lost the add")
	}
}
