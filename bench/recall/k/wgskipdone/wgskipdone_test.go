// Package wgskipdone: a worker that gives up early returns before its
// deferred Done is registered, so Wait never returns.
package wgskipdone

import (
	"sync"
	"sync/atomic"
	"testing"
)

func TestWorkers(t *testing.T) {
	var configured atomic.Bool
	var sum atomic.Int64
	var wg sync.WaitGroup
	wg.Add(2)
	for i := range 2 {
		go func() {
			if !configured.Load() {
				return // forgets wg.Done
			}
			defer wg.Done()
			sum.Add(int64(i))
		}()
	}
	configured.Store(true)
	wg.Wait()
	if sum.Load() != 1 {
		t.Fatalf("sum %d, want 1", sum.Load())
	}
}
