// Package oldgo is a module at go 1.18: the runtime injected into it is
// compiled at that language version (no min, max, clear, range over int).
package oldgo

import (
	"sync"
	"testing"
)

func TestCount(t *testing.T) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	n := 0
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mu.Lock()
			n++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if n != 2 {
		t.Fatal("lost an increment")
	}
}
