// Package captureindexouter: the index is declared outside a plain for
// loop and captured by the goroutines it starts.
package captureindexouter

import (
	"sync"
	"testing"
)

func TestSquares(t *testing.T) {
	out := make([]int, 4)
	var wg sync.WaitGroup
	i := 0
	for i < 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = i * i // i is shared with the loop
		}()
		i++
	}
	wg.Wait()
	if out[3] > 9 {
		t.Fatalf("out %v", out)
	}
}
