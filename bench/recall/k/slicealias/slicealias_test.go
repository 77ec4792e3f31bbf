// Package slicealias: two goroutines append to the same slice with spare
// capacity: both appends write the same element of the shared array.
package slicealias

import (
	"sync"
	"testing"
)

func TestTags(t *testing.T) {
	base := make([]string, 1, 4)
	base[0] = "service"
	var wg sync.WaitGroup
	out := make([][]string, 2)
	for i, tag := range []string{"eu", "us"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = append(base, tag) // should copy base first
		}()
	}
	wg.Wait()
	if len(out[0]) != 2 || len(out[1]) != 2 {
		t.Fatalf("out = %v", out)
	}
}
