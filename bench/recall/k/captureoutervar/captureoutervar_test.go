// Package captureoutervar: the loop assigns a variable declared before the
// loop (for _, item = range), so every goroutine captures the same one —
// per-iteration loop variables do not apply.
package captureoutervar

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestSum(t *testing.T) {
	items := []int64{1, 2, 3}
	var sum atomic.Int64
	var wg sync.WaitGroup
	var item int64
	for _, item = range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sum.Add(item) // reads item while the loop writes it
		}()
	}
	wg.Wait()
	if sum.Load() < 3 {
		t.Fatalf("sum %d", sum.Load())
	}
}
