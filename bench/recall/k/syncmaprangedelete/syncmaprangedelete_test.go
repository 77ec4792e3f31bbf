// Package syncmaprangedelete: two workers drain a sync.Map of pending
// jobs with Range, run each job and Delete it; both can see a job before
// either deletes it, and run it twice.
package syncmaprangedelete

import (
	"sync"
	"sync/atomic"
	"testing"
)

func drain(pending *sync.Map, runs *atomic.Int64) {
	pending.Range(func(k, _ any) bool {
		runs.Add(1) // run the job
		pending.Delete(k)
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
