//go:build interleavetagged
// +build interleavetagged

package racetags

import (
	"sync"
	"testing"
)

// TestTaggedLostUpdate loses an update only when one goroutine's read and
// write straddle the other's: a bug only a build with the tag
// interleavetagged has a test for, and only some schedules show.
func TestTaggedLostUpdate(t *testing.T) {
	var mu sync.Mutex
	n := 0
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			v := n
			mu.Unlock()
			mu.Lock()
			n = v + 1
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatalf("lost update: n = %d, want 2", n)
	}
}
