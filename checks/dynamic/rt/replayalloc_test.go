package rt

import (
	"sync"
	"testing"
)

// A replayed schedule's decisions allocate nothing, traced or not
// (explore replays with Config.Trace): go-redis's
// TestAllTryTransitionUsePredefinedSlices (testing.AllocsPerRun <= 2)
// passed under the search but failed its replay with 34 allocations a run.
func TestReplayDecisionsDoNotAllocate(t *testing.T) {
	var allocs float64
	body := func(t *testing.T) {
		var mu sync.Mutex
		ch := make(chan int, 1)
		allocs = testing.AllocsPerRun(50, func() {
			Lock(&mu)
			Unlock(&mu)
			Send(ch, 1)
			Recv(ch)
		})
	}
	rs := RunSchedules(t, Config{Schedules: 1, Seed: 1}, body, nil)
	if len(rs) != 1 || rs[0].Outcome != "pass" {
		t.Fatalf("recording: %+v", rs)
	}
	if allocs != 0 {
		t.Fatalf("recording: %v allocations per run, want 0", allocs)
	}
	for _, trace := range []bool{false, true} {
		sch := &Schedule{Seed: rs[0].Seed, Decisions: rs[0].Decisions}
		again := RunSchedules(t, Config{Replay: sch, Trace: trace}, body, nil)
		if len(again) != 1 || again[0].Outcome != "pass" || again[0].Diverged != "" {
			t.Fatalf("trace %v: replay %+v", trace, again)
		}
		if allocs != 0 {
			t.Errorf("trace %v: %v allocations per run replayed, want 0", trace, allocs)
		}
	}
}
