//go:build go1.21

// Package okloopvarpre122: Go 1.21 language version, and the loop variable
// is copied per iteration before the goroutine captures it. Must not be
// reported.
package okloopvarpre122

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
		i := i
		wg.Add(1)
		go func() {
			defer wg.Done()
			started <- struct{}{}
			mu.Lock()
			slots[i]++
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
