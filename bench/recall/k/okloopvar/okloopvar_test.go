// Package okloopvar: since Go 1.22 each iteration of a for-range or
// three-clause loop has its own variable, so capturing it is safe. Must not
// be reported.
package okloopvar

import (
	"sync"
	"testing"
)

func TestSquares(t *testing.T) {
	out := make([]int, 6)
	var wg sync.WaitGroup
	for i := range 3 {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = i * i }()
	}
	for i := 3; i < 6; i++ {
		wg.Add(1)
		go func() { defer wg.Done(); out[i] = i * i }()
	}
	wg.Wait()
	for i, v := range out {
		if v != i*i {
			t.Fatalf("out[%d] = %d", i, v)
		}
	}
}
