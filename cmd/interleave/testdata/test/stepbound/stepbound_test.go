// Package stepbound is a test that needs about 800 scheduling steps: with
// -max-steps 100 every schedule stops at the bound before it ends.
package stepbound

import (
	"sync"
	"testing"
)

func TestManySteps(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 200 {
				mu.Lock()
				n++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if n != 400 {
		t.Fatalf("n = %d, want 400", n)
	}
}
