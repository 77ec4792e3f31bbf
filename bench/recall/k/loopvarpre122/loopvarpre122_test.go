//go:build go1.21

// Package loopvarpre122: this file's build line sets its language version
// to Go 1.21, before per-iteration loop variables: every goroutine shares
// the one i, which the loop increments after the worker's start signal.
package loopvarpre122

import (
	"sync"
	"testing"
)

func TestSlots(t *testing.T) {
	const n = 3
	slots := make([]int, n+1)
	started := make(chan struct{})
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			started <- struct{}{}
			mu.Lock()
			slots[i]++ // i is the loop's variable, shared by every iteration
			mu.Unlock()
		}()
		<-started
	}
	wg.Wait()
	for i := 0; i < n; i++ {
		if slots[i] != 1 {
			t.Fatalf("slots = %v", slots)
		}
	}
}
