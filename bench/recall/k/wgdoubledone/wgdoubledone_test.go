// Package wgdoubledone: a worker calls Done on its error path and again in
// its deferred cleanup.
package wgdoubledone

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestWorkers(t *testing.T) {
	var ready atomic.Bool
	var failed atomic.Int32
	var wg sync.WaitGroup
	wg.Add(2)
	for range 2 {
		go func() {
			defer wg.Done()
			if !ready.Load() {
				failed.Add(1)
				wg.Done() // and again by the defer: negative counter
				return
			}
		}()
	}
	ready.Store(true)
	wg.Wait()
	if failed.Load() > 2 {
		t.Fatal("impossible")
	}
}
