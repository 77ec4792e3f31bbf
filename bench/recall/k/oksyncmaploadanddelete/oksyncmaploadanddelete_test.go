// Package oksyncmaploadanddelete: a worker claims a job with LoadAndDelete
// before it runs it: each job runs once. Must not be reported.
package oksyncmaploadanddelete

import (
	"sync"
	"sync/atomic"
	"testing"
)

func drain(pending *sync.Map, runs *atomic.Int64) {
	pending.Range(func(k, _ any) bool {
		if _, mine := pending.LoadAndDelete(k); mine {
			runs.Add(1) // run the job
		}
		return true
	})
}

func TestDrain(t *testing.T) {
	var pending sync.Map
	pending.Store("job", struct{}{})
	var runs atomic.Int64
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			drain(&pending, &runs)
		}()
	}
	wg.Wait()
	if n := runs.Load(); n != 1 {
		t.Fatalf("job ran %d times", n)
	}
}
