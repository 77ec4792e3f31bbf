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
	// The Go runtime itself allocates now and then, more on a loaded
	// machine: a new thread, and the wait records (sudogs) a goroutine
	// blocking in a hand-off takes, whose cache each collection drops and
	// which Ps share unevenly (1 to 21 a run at load 3, all under
	// sync.runtime_Semacquire). So the buffers are checked directly (their
	// room is what the schedule began with), and the least count over a
	// few fresh processes' first schedules is held well below one a
	// decision.
	for run := 0; run < 5 && least != 0; run++ {
		decBuf.d, decBuf.pcs = chunkLog[Decision]{}, chunkLog[[10]uintptr]{} // as in a fresh process
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
		chunks := (decisionRoom(DefaultMaxSteps) + chunkLen - 1) / chunkLen
		if len(decBuf.d.chunks) != chunks || len(decBuf.pcs.chunks) != chunks {
			t.Fatalf("run %d: the decision logs hold %d and %d chunks after the schedule, want the %d they began with (they grew)", run, len(decBuf.d.chunks), len(decBuf.pcs.chunks), chunks)
		}
		t.Logf("run %d: %d allocations", run, mallocs)
		least = min(least, mallocs)
	}
	if least >= maxRuntimeAllocs {
		t.Errorf("16,000 decisions: %d allocations, want fewer than %d", least, maxRuntimeAllocs)
	}
}

// maxRuntimeAllocs bounds the allocations of the Go runtime's own in a
// schedule of 16,000 decisions (TestLongScheduleDoesNotAllocate): one a
// decision, or a buffer's copy as it grows, is far more.
const maxRuntimeAllocs = 64
