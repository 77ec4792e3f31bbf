package rt

import (
	"runtime"
	"sync"
	"testing"
)

// A schedule of 16,000 decisions in a fresh process appends them without
// allocating: its buffers have room for the step bound from the start (a
// test counting allocations sees none of rt's; the decisions made are not
// copied as the buffers grow).
func TestLongScheduleDoesNotAllocate(t *testing.T) {
	least := uint64(1 << 62)
	// The Go runtime itself may allocate now and then (a new thread):
	// the least count over a few fresh processes' first schedules.
	for run := 0; run < 5 && least != 0; run++ {
		decBuf.d, decBuf.pcs = nil, nil // as in a fresh process
		var mallocs uint64
		res := RunFunc(Config{Seed: 1}, 0, func() {
			var mu sync.Mutex
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			before := ms.Mallocs
			for i := 0; i < 8000; i++ {
				Lock(&mu)
				Unlock(&mu)
			}
			runtime.ReadMemStats(&ms)
			mallocs = ms.Mallocs - before
		})
		if res.Outcome != "pass" || res.Inconclusive != "" {
			t.Fatalf("%s %s %s", res.Outcome, res.Inconclusive, res.Message)
		}
		if res.Steps < 16000 {
			t.Fatalf("%d steps, want 16,000 at least", res.Steps)
		}
		t.Logf("run %d: %d allocations", run, mallocs)
		least = min(least, mallocs)
	}
	if least != 0 {
		t.Errorf("16,000 decisions: %d allocations, want 0", least)
	}
}
