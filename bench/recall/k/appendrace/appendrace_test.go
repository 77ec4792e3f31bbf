// Package appendrace: goroutines append to a slice they share.
package appendrace

import (
	"sync"
	"testing"
)

func TestCollect(t *testing.T) {
	var out []int
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out = append(out, i*i) // unsynchronized append
		}()
	}
	wg.Wait()
	if len(out) > 3 {
		t.Fatalf("%d results", len(out))
	}
}
