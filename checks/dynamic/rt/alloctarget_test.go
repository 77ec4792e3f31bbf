package rt

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Under the targeted strategy (pr's search at the changed lines) a
// scheduling point does not allocate either: go-redis's
// TestAllTryTransitionUsePredefinedSlices counts the allocations of two
// atomic compare-and-swaps and failed under pr.
func TestTargetedPointsDoNotAllocate(t *testing.T) {
	cfg := Config{Schedules: 2, Seed: 1, Strategy: "pos", Targets: []string{"alloctarget_test.go:24", "alloctarget_test.go:25"}}
	rs := RunSchedules(t, cfg, func(t *testing.T) {
		var mu sync.Mutex
		var n atomic.Int64
		helper := func() {
			Lock(&mu)
			Unlock(&mu)
		}
		f := func() {
			Then(Atomic(&n), n.Add(1))
			helper()
		}
		if a := testing.AllocsPerRun(100, f); a != 0 {
			t.Errorf("%v allocations per run under the targeted strategy, want 0", a)
		}
	}, nil)
	for _, r := range rs {
		if r.Outcome != "pass" {
			t.Errorf("schedule %d: %s %s", r.Index, r.Outcome, r.Message)
		}
	}
}
