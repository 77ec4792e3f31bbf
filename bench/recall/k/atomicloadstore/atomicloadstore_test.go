// Package atomicloadstore: an increment made of an atomic Load and an
// atomic Store loses updates.
package atomicloadstore

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestIncrements(t *testing.T) {
	var n atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Store(n.Load() + 1) // should be n.Add(1)
		}()
	}
	wg.Wait()
	if n.Load() != 2 {
		t.Fatalf("count %d, want 2", n.Load())
	}
}
